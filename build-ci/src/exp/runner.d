build-ci/src/exp/runner.o: src/exp/runner.c src/base/base.h src/exp/exp.h
src/base/base.h:
src/exp/exp.h:
