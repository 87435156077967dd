build-ci/src/base/json.o: src/base/json.c src/base/json.h src/base/base.h
src/base/json.h:
src/base/base.h:
