build-ci/src/mem/cache.o: src/mem/cache.c src/mem/mem.h src/base/config.h \
 src/base/config.def src/mem/calendar.h src/sim/tstats.h \
 src/sim/tstats.def src/base/base.h
src/mem/mem.h:
src/base/config.h:
src/base/config.def:
src/mem/calendar.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
