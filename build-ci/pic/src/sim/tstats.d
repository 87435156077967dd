build-ci/pic/src/sim/tstats.o: src/sim/tstats.c src/sim/tstats.h \
 src/sim/tstats.def src/base/json.h
src/sim/tstats.h:
src/sim/tstats.def:
src/base/json.h:
