build-ci/workloads/lud/lud.o: workloads/lud/lud.c \
 workloads/lud/../workloads.h workloads/lud/../workloads.def \
 workloads/lud/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/lud/../workloads.h:
workloads/lud/../workloads.def:
workloads/lud/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
