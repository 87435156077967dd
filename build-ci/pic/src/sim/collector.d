build-ci/pic/src/sim/collector.o: src/sim/collector.c src/sim/sm.h \
 src/mem/mem.h src/base/config.h src/base/config.def src/mem/calendar.h \
 src/sim/tstats.h src/sim/tstats.def src/sim/events.h src/sim/rf/rf.h \
 src/sim/timing.h src/sim/decode.h src/ptx/ir.h src/ptx/ops.def \
 src/sim/gpu.h src/sim/rf/models.def src/sim/warp.h src/sim/mem.h
src/sim/sm.h:
src/mem/mem.h:
src/base/config.h:
src/base/config.def:
src/mem/calendar.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/events.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/rf/models.def:
src/sim/warp.h:
src/sim/mem.h:
