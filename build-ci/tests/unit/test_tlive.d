build-ci/tests/unit/test_tlive.o: tests/unit/test_tlive.c src/base/base.h \
 src/sim/gpu.h src/base/config.h src/base/config.def src/sim/tstats.h \
 src/sim/tstats.def src/sim/prog.h src/ptx/ir.h src/ptx/ops.def \
 src/sim/decode.h src/sim/timing.h tests/unit/unit.h
src/base/base.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/prog.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/decode.h:
src/sim/timing.h:
tests/unit/unit.h:
