build-ci/workloads/cfd/cfd.o: workloads/cfd/cfd.c \
 workloads/cfd/../workloads.h workloads/cfd/../workloads.def \
 workloads/cfd/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/cfd/../workloads.h:
workloads/cfd/../workloads.def:
workloads/cfd/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
