build-ci/pic/src/sim/alufp.o: src/sim/alufp.c src/sim/alu.h src/ptx/ir.h \
 src/ptx/ops.def
src/sim/alu.h:
src/ptx/ir.h:
src/ptx/ops.def:
