build-ci/pic/src/sim/eval.o: src/sim/eval.c src/sim/eval.h \
 src/sim/decode.h src/ptx/ir.h src/ptx/ops.def src/sim/alu.h
src/sim/eval.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/alu.h:
