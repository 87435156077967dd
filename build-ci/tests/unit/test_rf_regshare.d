build-ci/tests/unit/test_rf_regshare.o: tests/unit/test_rf_regshare.c \
 src/analysis/regshare.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/ptx/ir.h src/ptx/ops.def src/base/base.h \
 src/sim/rf/rf.h src/sim/timing.h src/sim/decode.h src/ptx/ir.h \
 src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def src/sim/rf/models.def \
 tests/unit/tsim.h tests/unit/unit.h
src/analysis/regshare.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/models.def:
tests/unit/tsim.h:
tests/unit/unit.h:
