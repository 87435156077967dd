build-ci/workloads/lib/lib.o: workloads/lib/lib.c \
 workloads/lib/../workloads.h workloads/lib/../workloads.def \
 workloads/lib/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/lib/../workloads.h:
workloads/lib/../workloads.def:
workloads/lib/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
