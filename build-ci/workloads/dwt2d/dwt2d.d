build-ci/workloads/dwt2d/dwt2d.o: workloads/dwt2d/dwt2d.c \
 workloads/dwt2d/../workloads.h workloads/dwt2d/../workloads.def \
 workloads/dwt2d/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/dwt2d/../workloads.h:
workloads/dwt2d/../workloads.def:
workloads/dwt2d/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
