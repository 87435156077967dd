build-ci/workloads/pathfinder/pathfinder.o: \
 workloads/pathfinder/pathfinder.c workloads/pathfinder/../workloads.h \
 workloads/pathfinder/../workloads.def workloads/pathfinder/../wl_util.h \
 src/api/cuda.h src/api/cuerrors.def
workloads/pathfinder/../workloads.h:
workloads/pathfinder/../workloads.def:
workloads/pathfinder/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
