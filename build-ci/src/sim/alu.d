build-ci/src/sim/alu.o: src/sim/alu.c src/sim/alu.h src/ptx/ir.h \
 src/ptx/ops.def
src/sim/alu.h:
src/ptx/ir.h:
src/ptx/ops.def:
