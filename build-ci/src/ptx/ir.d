build-ci/src/ptx/ir.o: src/ptx/ir.c src/ptx/ir.h src/ptx/ops.def \
 src/base/base.h
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
