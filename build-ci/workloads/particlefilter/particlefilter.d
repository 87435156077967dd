build-ci/workloads/particlefilter/particlefilter.o: \
 workloads/particlefilter/particlefilter.c \
 workloads/particlefilter/../workloads.h \
 workloads/particlefilter/../workloads.def \
 workloads/particlefilter/../wl_util.h src/api/cuda.h \
 src/api/cuerrors.def
workloads/particlefilter/../workloads.h:
workloads/particlefilter/../workloads.def:
workloads/particlefilter/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
