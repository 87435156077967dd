build-ci/src/cli/run_workload.o: src/cli/run_workload.c src/api/api.h \
 src/base/config.h src/base/config.def src/api/cuda.h \
 src/api/cuerrors.def src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/base/base.h src/cli/cli.h src/api/report.h src/cli/wlrun.h \
 src/cli/../../workloads/workloads.h \
 src/cli/../../workloads/workloads.def
src/api/api.h:
src/base/config.h:
src/base/config.def:
src/api/cuda.h:
src/api/cuerrors.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/cli/wlrun.h:
src/cli/../../workloads/workloads.h:
src/cli/../../workloads/workloads.def:
