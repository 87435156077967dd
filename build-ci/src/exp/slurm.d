build-ci/src/exp/slurm.o: src/exp/slurm.c src/base/base.h src/exp/exp.h
src/base/base.h:
src/exp/exp.h:
