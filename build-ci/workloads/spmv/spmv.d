build-ci/workloads/spmv/spmv.o: workloads/spmv/spmv.c \
 workloads/spmv/../workloads.h workloads/spmv/../workloads.def \
 workloads/spmv/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/spmv/../workloads.h:
workloads/spmv/../workloads.def:
workloads/spmv/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
