build-ci/src/exp/plot.o: src/exp/plot.c src/base/base.h src/exp/exp.h
src/base/base.h:
src/exp/exp.h:
