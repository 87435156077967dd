build-ci/workloads/sgemm/sgemm.o: workloads/sgemm/sgemm.c \
 workloads/sgemm/../workloads.h workloads/sgemm/../workloads.def \
 workloads/sgemm/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/sgemm/../workloads.h:
workloads/sgemm/../workloads.def:
workloads/sgemm/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
