build-ci/pic/src/sim/events.o: src/sim/events.c src/sim/events.h \
 src/base/base.h
src/sim/events.h:
src/base/base.h:
