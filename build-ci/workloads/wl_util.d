build-ci/workloads/wl_util.o: workloads/wl_util.c workloads/wl_util.h \
 src/api/cuda.h src/api/cuerrors.def
workloads/wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
