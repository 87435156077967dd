build-ci/pic/src/sim/rf/rf.o: src/sim/rf/rf.c src/sim/rf/rf.h \
 src/base/config.h src/base/config.def src/sim/timing.h src/sim/decode.h \
 src/ptx/ir.h src/ptx/ops.def src/sim/gpu.h src/sim/tstats.h \
 src/sim/tstats.def src/sim/rf/models.def
src/sim/rf/rf.h:
src/base/config.h:
src/base/config.def:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/models.def:
