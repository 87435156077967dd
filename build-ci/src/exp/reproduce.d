build-ci/src/exp/reproduce.o: src/exp/reproduce.c src/base/base.h \
 src/exp/exp.h src/exp/experiments.def
src/base/base.h:
src/exp/exp.h:
src/exp/experiments.def:
