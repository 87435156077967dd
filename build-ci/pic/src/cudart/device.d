build-ci/pic/src/cudart/device.o: src/cudart/device.c src/base/base.h \
 src/cudart/rt.h src/api/cuda.h src/api/cuerrors.def src/base/config.h \
 src/base/config.def src/cudart/cudart.h src/cudart/rterrors.def
src/base/base.h:
src/cudart/rt.h:
src/api/cuda.h:
src/api/cuerrors.def:
src/base/config.h:
src/base/config.def:
src/cudart/cudart.h:
src/cudart/rterrors.def:
