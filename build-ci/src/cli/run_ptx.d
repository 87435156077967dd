build-ci/src/cli/run_ptx.o: src/cli/run_ptx.c src/base/base.h \
 src/cli/cli.h src/api/report.h src/base/config.h src/base/config.def \
 src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
