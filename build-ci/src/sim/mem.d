build-ci/src/sim/mem.o: src/sim/mem.c src/sim/mem.h src/base/base.h \
 src/sim/gpu.h src/base/config.h src/base/config.def src/sim/tstats.h \
 src/sim/tstats.def
src/sim/mem.h:
src/base/base.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
