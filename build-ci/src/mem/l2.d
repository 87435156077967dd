build-ci/src/mem/l2.o: src/mem/l2.c src/mem/mem.h src/base/config.h \
 src/base/config.def src/mem/calendar.h src/sim/tstats.h \
 src/sim/tstats.def src/base/base.h
src/mem/mem.h:
src/base/config.h:
src/base/config.def:
src/mem/calendar.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
