build-ci/workloads/stencil3d/stencil3d.o: workloads/stencil3d/stencil3d.c \
 workloads/stencil3d/../workloads.h workloads/stencil3d/../workloads.def \
 workloads/stencil3d/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/stencil3d/../workloads.h:
workloads/stencil3d/../workloads.def:
workloads/stencil3d/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
