build-ci/src/exp/results.o: src/exp/results.c src/base/base.h \
 src/exp/exp.h
src/base/base.h:
src/exp/exp.h:
