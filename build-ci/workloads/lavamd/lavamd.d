build-ci/workloads/lavamd/lavamd.o: workloads/lavamd/lavamd.c \
 workloads/lavamd/../workloads.h workloads/lavamd/../workloads.def \
 workloads/lavamd/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/lavamd/../workloads.h:
workloads/lavamd/../workloads.def:
workloads/lavamd/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
