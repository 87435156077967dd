build-ci/workloads/srad/srad.o: workloads/srad/srad.c \
 workloads/srad/../workloads.h workloads/srad/../workloads.def \
 workloads/srad/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/srad/../workloads.h:
workloads/srad/../workloads.def:
workloads/srad/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
