build-ci/src/analysis/occupancy.o: src/analysis/occupancy.c \
 src/analysis/occupancy.h src/base/config.h src/base/config.def \
 src/base/rftech.h
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/base/rftech.h:
