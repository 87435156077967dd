build-ci/src/ptx/link.o: src/ptx/link.c src/base/base.h src/ptx/ptx.h \
 src/ptx/ir.h src/ptx/ops.def
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/ptx/ops.def:
