build-ci/src/sim/rf/rf_regshare.o: src/sim/rf/rf_regshare.c \
 src/analysis/regshare.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/ptx/ir.h src/ptx/ops.def src/base/base.h \
 src/sim/rf/mrf.h src/base/rftech.h src/sim/rf/banks.h src/sim/tstats.h \
 src/sim/tstats.def src/sim/rf/rf.h src/sim/timing.h src/sim/decode.h \
 src/ptx/ir.h src/sim/gpu.h src/sim/rf/models.def
src/analysis/regshare.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
src/sim/rf/mrf.h:
src/base/rftech.h:
src/sim/rf/banks.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/sim/gpu.h:
src/sim/rf/models.def:
