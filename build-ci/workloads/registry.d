build-ci/workloads/registry.o: workloads/registry.c workloads/workloads.h \
 workloads/workloads.def
workloads/workloads.h:
workloads/workloads.def:
