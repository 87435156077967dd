build-ci/tests/unit/test_energy.o: tests/unit/test_energy.c \
 src/base/base.h src/base/rftech.h src/base/config.h src/base/config.def \
 src/energy/energy.h src/sim/tstats.h src/sim/tstats.def \
 tests/unit/tsim.h src/sim/gpu.h tests/unit/unit.h
src/base/base.h:
src/base/rftech.h:
src/base/config.h:
src/base/config.def:
src/energy/energy.h:
src/sim/tstats.h:
src/sim/tstats.def:
tests/unit/tsim.h:
src/sim/gpu.h:
tests/unit/unit.h:
