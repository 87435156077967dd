build-ci/src/exp/spec.o: src/exp/spec.c src/base/base.h src/base/config.h \
 src/base/config.def src/exp/exp.h src/base/json.h \
 src/exp/../../workloads/workloads.h \
 src/exp/../../workloads/workloads.def
src/base/base.h:
src/base/config.h:
src/base/config.def:
src/exp/exp.h:
src/base/json.h:
src/exp/../../workloads/workloads.h:
src/exp/../../workloads/workloads.def:
