build-ci/pic/src/cudart/ptds.o: src/cudart/ptds.c src/cudart/rt.h \
 src/api/cuda.h src/api/cuerrors.def src/base/config.h \
 src/base/config.def src/cudart/cudart.h src/cudart/rterrors.def
src/cudart/rt.h:
src/api/cuda.h:
src/api/cuerrors.def:
src/base/config.h:
src/base/config.def:
src/cudart/cudart.h:
src/cudart/rterrors.def:
