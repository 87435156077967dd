build-ci/src/cli/analyze.o: src/cli/analyze.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/analysis/interval.h \
 src/analysis/listing.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/analysis/pass.h src/analysis/regalloc.h \
 src/analysis/regmutex.h src/analysis/schedule.h src/analysis/regshare.h \
 src/base/base.h src/cli/cli.h src/api/report.h src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/base/json.h src/ptx/ptx.h \
 src/ptx/ir.h src/cli/../../workloads/workloads.h \
 src/cli/../../workloads/workloads.def
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/interval.h:
src/analysis/listing.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/analysis/pass.h:
src/analysis/regalloc.h:
src/analysis/regmutex.h:
src/analysis/schedule.h:
src/analysis/regshare.h:
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/json.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/cli/../../workloads/workloads.h:
src/cli/../../workloads/workloads.def:
