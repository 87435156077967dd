build-ci/pic/src/sim/timing.o: src/sim/timing.c src/sim/timing.h \
 src/base/config.h src/base/config.def src/sim/decode.h src/ptx/ir.h \
 src/ptx/ops.def src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/analysis/occupancy.h src/base/base.h src/base/rftech.h src/sim/sm.h \
 src/mem/mem.h src/mem/calendar.h src/sim/events.h src/sim/rf/rf.h \
 src/sim/rf/models.def src/sim/warp.h src/sim/mem.h
src/sim/timing.h:
src/base/config.h:
src/base/config.def:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/analysis/occupancy.h:
src/base/base.h:
src/base/rftech.h:
src/sim/sm.h:
src/mem/mem.h:
src/mem/calendar.h:
src/sim/events.h:
src/sim/rf/rf.h:
src/sim/rf/models.def:
src/sim/warp.h:
src/sim/mem.h:
