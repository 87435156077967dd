build-ci/pic/src/cudart/array.o: src/cudart/array.c src/api/api.h \
 src/base/config.h src/base/config.def src/api/cuda.h \
 src/api/cuerrors.def src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/base/base.h src/cudart/rt.h src/api/cuda.h src/cudart/cudart.h \
 src/cudart/rterrors.def
src/api/api.h:
src/base/config.h:
src/base/config.def:
src/api/cuda.h:
src/api/cuerrors.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
src/cudart/rt.h:
src/api/cuda.h:
src/cudart/cudart.h:
src/cudart/rterrors.def:
