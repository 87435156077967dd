build-ci/src/exp/gnuplot.o: src/exp/gnuplot.c src/base/base.h \
 src/exp/exp.h
src/base/base.h:
src/exp/exp.h:
