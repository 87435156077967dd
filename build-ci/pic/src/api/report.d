build-ci/pic/src/api/report.o: src/api/report.c src/api/report.h \
 src/base/config.h src/base/config.def src/sim/gpu.h src/sim/tstats.h \
 src/sim/tstats.def src/base/base.h src/base/json.h src/energy/energy.h
src/api/report.h:
src/base/config.h:
src/base/config.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
src/base/json.h:
src/energy/energy.h:
