build-ci/src/base/base.o: src/base/base.c src/base/base.h
src/base/base.h:
