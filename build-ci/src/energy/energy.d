build-ci/src/energy/energy.o: src/energy/energy.c src/energy/energy.h \
 src/base/config.h src/base/config.def src/sim/tstats.h \
 src/sim/tstats.def src/base/json.h src/base/rftech.h src/sim/rf/rf.h \
 src/sim/timing.h src/sim/decode.h src/ptx/ir.h src/ptx/ops.def \
 src/sim/gpu.h src/sim/rf/models.def src/energy/caches.def
src/energy/energy.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/json.h:
src/base/rftech.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/rf/models.def:
src/energy/caches.def:
