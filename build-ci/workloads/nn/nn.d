build-ci/workloads/nn/nn.o: workloads/nn/nn.c workloads/nn/../workloads.h \
 workloads/nn/../workloads.def workloads/nn/../wl_util.h src/api/cuda.h \
 src/api/cuerrors.def
workloads/nn/../workloads.h:
workloads/nn/../workloads.def:
workloads/nn/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
