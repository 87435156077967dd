build-ci/src/sim/rf/rf_rfc.o: src/sim/rf/rf_rfc.c src/base/base.h \
 src/base/rftech.h src/base/config.h src/base/config.def src/sim/rf/mrf.h \
 src/sim/rf/banks.h src/sim/tstats.h src/sim/tstats.def src/sim/rf/rf.h \
 src/sim/timing.h src/sim/decode.h src/ptx/ir.h src/ptx/ops.def \
 src/sim/gpu.h src/sim/rf/models.def
src/base/base.h:
src/base/rftech.h:
src/base/config.h:
src/base/config.def:
src/sim/rf/mrf.h:
src/sim/rf/banks.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/rf/models.def:
