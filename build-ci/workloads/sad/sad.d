build-ci/workloads/sad/sad.o: workloads/sad/sad.c \
 workloads/sad/../workloads.h workloads/sad/../workloads.def \
 workloads/sad/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/sad/../workloads.h:
workloads/sad/../workloads.def:
workloads/sad/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
