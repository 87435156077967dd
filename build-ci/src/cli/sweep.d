build-ci/src/cli/sweep.o: src/cli/sweep.c src/base/base.h src/cli/cli.h \
 src/api/report.h src/base/config.h src/base/config.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/exp/exp.h
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/exp/exp.h:
