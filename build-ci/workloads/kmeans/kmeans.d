build-ci/workloads/kmeans/kmeans.o: workloads/kmeans/kmeans.c \
 workloads/kmeans/../workloads.h workloads/kmeans/../workloads.def \
 workloads/kmeans/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/kmeans/../workloads.h:
workloads/kmeans/../workloads.def:
workloads/kmeans/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
