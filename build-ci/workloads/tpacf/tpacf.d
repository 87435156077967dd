build-ci/workloads/tpacf/tpacf.o: workloads/tpacf/tpacf.c \
 workloads/tpacf/../workloads.h workloads/tpacf/../workloads.def \
 workloads/tpacf/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/tpacf/../workloads.h:
workloads/tpacf/../workloads.def:
workloads/tpacf/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
