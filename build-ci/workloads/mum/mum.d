build-ci/workloads/mum/mum.o: workloads/mum/mum.c \
 workloads/mum/../workloads.h workloads/mum/../workloads.def \
 workloads/mum/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/mum/../workloads.h:
workloads/mum/../workloads.def:
workloads/mum/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
