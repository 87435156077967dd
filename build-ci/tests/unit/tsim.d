build-ci/tests/unit/tsim.o: tests/unit/tsim.c tests/unit/tsim.h \
 src/base/config.h src/base/config.def src/sim/gpu.h src/sim/tstats.h \
 src/sim/tstats.def src/base/base.h src/sim/prog.h src/ptx/ir.h \
 src/ptx/ops.def src/sim/decode.h tests/unit/unit.h
tests/unit/tsim.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
src/sim/prog.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/decode.h:
tests/unit/unit.h:
