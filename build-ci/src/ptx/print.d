build-ci/src/ptx/print.o: src/ptx/print.c src/base/base.h src/ptx/ptx.h \
 src/ptx/ir.h src/ptx/ops.def
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/ptx/ops.def:
