build-ci/workloads/bfs/bfs.o: workloads/bfs/bfs.c \
 workloads/bfs/../workloads.h workloads/bfs/../workloads.def \
 workloads/bfs/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/bfs/../workloads.h:
workloads/bfs/../workloads.def:
workloads/bfs/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
