build-ci/src/cli/kargs.o: src/cli/kargs.c src/base/base.h src/cli/cli.h \
 src/api/report.h src/base/config.h src/base/config.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def
src/base/base.h:
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
