build-ci/src/sim/rf/rf_ltrf.o: src/sim/rf/rf_ltrf.c \
 src/analysis/interval.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/base/base.h src/base/rftech.h src/base/config.h src/base/config.def \
 src/sim/rf/banks.h src/sim/rf/rf.h src/sim/timing.h src/sim/decode.h \
 src/ptx/ir.h src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/sim/rf/models.def src/sim/warp.h src/sim/mem.h
src/analysis/interval.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
src/base/rftech.h:
src/base/config.h:
src/base/config.def:
src/sim/rf/banks.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/models.def:
src/sim/warp.h:
src/sim/mem.h:
