build-ci/tests/unit/test_config.o: tests/unit/test_config.c \
 src/base/base.h src/base/config.h src/base/config.def src/base/json.h \
 src/base/rftech.h src/base/config.h tests/unit/unit.h
src/base/base.h:
src/base/config.h:
src/base/config.def:
src/base/json.h:
src/base/rftech.h:
src/base/config.h:
tests/unit/unit.h:
