build-ci/tests/unit/test_rf_regmutex.o: tests/unit/test_rf_regmutex.c \
 src/base/config.h src/base/config.def src/sim/rf/rf.h src/sim/timing.h \
 src/sim/decode.h src/ptx/ir.h src/ptx/ops.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/sim/rf/models.def \
 tests/unit/unit.h
src/base/config.h:
src/base/config.def:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/rf/models.def:
tests/unit/unit.h:
