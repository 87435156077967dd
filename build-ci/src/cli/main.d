build-ci/src/cli/main.o: src/cli/main.c src/base/base.h src/cli/cli.h \
 src/api/report.h src/base/config.h src/base/config.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/base/json.h src/sim/rf/rf.h \
 src/sim/timing.h src/sim/decode.h src/ptx/ir.h src/ptx/ops.def \
 src/sim/rf/models.def
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/json.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/rf/models.def:
