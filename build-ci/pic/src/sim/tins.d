build-ci/pic/src/sim/tins.o: src/sim/tins.c src/sim/timing.h \
 src/base/config.h src/base/config.def src/sim/decode.h src/ptx/ir.h \
 src/ptx/ops.def src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/base/base.h
src/sim/timing.h:
src/base/config.h:
src/base/config.def:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
