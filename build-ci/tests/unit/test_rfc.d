build-ci/tests/unit/test_rfc.o: tests/unit/test_rfc.c src/base/base.h \
 src/sim/rf/rf.h src/base/config.h src/base/config.def src/sim/timing.h \
 src/sim/decode.h src/ptx/ir.h src/ptx/ops.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/sim/rf/models.def \
 tests/unit/tsim.h tests/unit/unit.h
src/base/base.h:
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
tests/unit/tsim.h:
tests/unit/unit.h:
