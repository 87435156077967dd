build-ci/workloads/mriq/mriq.o: workloads/mriq/mriq.c \
 workloads/mriq/../workloads.h workloads/mriq/../workloads.def \
 workloads/mriq/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/mriq/../workloads.h:
workloads/mriq/../workloads.def:
workloads/mriq/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
