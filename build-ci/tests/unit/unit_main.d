build-ci/tests/unit/unit_main.o: tests/unit/unit_main.c tests/unit/unit.h
tests/unit/unit.h:
