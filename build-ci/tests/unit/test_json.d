build-ci/tests/unit/test_json.o: tests/unit/test_json.c src/base/base.h \
 src/base/json.h tests/unit/unit.h
src/base/base.h:
src/base/json.h:
tests/unit/unit.h:
