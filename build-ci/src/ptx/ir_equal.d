build-ci/src/ptx/ir_equal.o: src/ptx/ir_equal.c src/ptx/ir.h \
 src/ptx/ops.def
src/ptx/ir.h:
src/ptx/ops.def:
