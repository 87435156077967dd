build-ci/tests/unit/test_link.o: tests/unit/test_link.c src/base/base.h \
 src/ptx/ptx.h src/ptx/ir.h src/ptx/ops.def src/sim/prog.h src/ptx/ir.h \
 src/sim/decode.h src/sim/gpu.h src/base/config.h src/base/config.def \
 src/sim/tstats.h src/sim/tstats.def tests/unit/tsim.h tests/unit/unit.h
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/prog.h:
src/ptx/ir.h:
src/sim/decode.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
tests/unit/tsim.h:
tests/unit/unit.h:
