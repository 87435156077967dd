build-ci/workloads/backprop/backprop.o: workloads/backprop/backprop.c \
 workloads/backprop/../workloads.h workloads/backprop/../workloads.def \
 workloads/backprop/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/backprop/../workloads.h:
workloads/backprop/../workloads.def:
workloads/backprop/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
