build-ci/tests/unit/test_occupancy.o: tests/unit/test_occupancy.c \
 tests/unit/unit.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/base/base.h src/base/config.h
tests/unit/unit.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/base/base.h:
src/base/config.h:
