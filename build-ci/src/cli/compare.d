build-ci/src/cli/compare.o: src/cli/compare.c src/base/base.h \
 src/cli/cli.h src/api/report.h src/base/config.h src/base/config.def \
 src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def src/energy/energy.h \
 src/sim/rf/rf.h src/sim/timing.h src/sim/decode.h src/ptx/ir.h \
 src/ptx/ops.def src/sim/rf/models.def src/cli/wlrun.h \
 src/cli/../../workloads/workloads.h \
 src/cli/../../workloads/workloads.def
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/energy/energy.h:
src/sim/rf/rf.h:
src/sim/timing.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/rf/models.def:
src/cli/wlrun.h:
src/cli/../../workloads/workloads.h:
src/cli/../../workloads/workloads.def:
