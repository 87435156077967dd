build-ci/tests/unit/test_calendar.o: tests/unit/test_calendar.c \
 src/mem/calendar.h tests/unit/unit.h
src/mem/calendar.h:
tests/unit/unit.h:
