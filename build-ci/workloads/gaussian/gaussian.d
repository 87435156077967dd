build-ci/workloads/gaussian/gaussian.o: workloads/gaussian/gaussian.c \
 workloads/gaussian/../workloads.h workloads/gaussian/../workloads.def \
 workloads/gaussian/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/gaussian/../workloads.h:
workloads/gaussian/../workloads.def:
workloads/gaussian/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
