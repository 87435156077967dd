build-ci/workloads/reduce/reduce.o: workloads/reduce/reduce.c \
 workloads/reduce/../workloads.h workloads/reduce/../workloads.def \
 workloads/reduce/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/reduce/../workloads.h:
workloads/reduce/../workloads.def:
workloads/reduce/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
