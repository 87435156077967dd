build-ci/workloads/hotspot/hotspot.o: workloads/hotspot/hotspot.c \
 workloads/hotspot/../workloads.h workloads/hotspot/../workloads.def \
 workloads/hotspot/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/hotspot/../workloads.h:
workloads/hotspot/../workloads.def:
workloads/hotspot/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
