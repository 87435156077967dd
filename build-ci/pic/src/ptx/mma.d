build-ci/pic/src/ptx/mma.o: src/ptx/mma.c src/ptx/ir.h src/ptx/ops.def
src/ptx/ir.h:
src/ptx/ops.def:
