build-ci/workloads/btree/btree.o: workloads/btree/btree.c \
 workloads/btree/../workloads.h workloads/btree/../workloads.def \
 workloads/btree/../wl_util.h src/api/cuda.h src/api/cuerrors.def
workloads/btree/../workloads.h:
workloads/btree/../workloads.def:
workloads/btree/../wl_util.h:
src/api/cuda.h:
src/api/cuerrors.def:
