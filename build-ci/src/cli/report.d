build-ci/src/cli/report.o: src/cli/report.c src/cli/cli.h \
 src/api/report.h src/base/config.h src/base/config.def src/sim/gpu.h \
 src/sim/tstats.h src/sim/tstats.def src/energy/energy.h
src/cli/cli.h:
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/energy/energy.h:
