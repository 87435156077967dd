build-ci/workloads/saxpy/saxpy.o: workloads/saxpy/saxpy.c \
 workloads/saxpy/../workloads.h workloads/saxpy/../workloads.def \
 workloads/saxpy/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/saxpy/../workloads.h:
workloads/saxpy/../workloads.def:
workloads/saxpy/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
