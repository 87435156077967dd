build-ci/src/sim/exec_mem.o: src/sim/exec_mem.c src/base/base.h \
 src/sim/alu.h src/ptx/ir.h src/ptx/ops.def src/sim/exec_int.h \
 src/sim/warp.h src/sim/decode.h src/sim/gpu.h src/base/config.h \
 src/base/config.def src/sim/tstats.h src/sim/tstats.def src/sim/mem.h
src/base/base.h:
src/sim/alu.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/exec_int.h:
src/sim/warp.h:
src/sim/decode.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/mem.h:
