build-ci/workloads/sort/sort.o: workloads/sort/sort.c \
 workloads/sort/../workloads.h workloads/sort/../workloads.def \
 workloads/sort/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/sort/../workloads.h:
workloads/sort/../workloads.def:
workloads/sort/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
