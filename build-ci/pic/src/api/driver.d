build-ci/pic/src/api/driver.o: src/api/driver.c src/api/api.h \
 src/base/config.h src/base/config.def src/api/cuda.h \
 src/api/cuerrors.def src/sim/gpu.h src/sim/tstats.h src/sim/tstats.def \
 src/base/base.h src/base/rftech.h
src/api/api.h:
src/base/config.h:
src/base/config.def:
src/api/cuda.h:
src/api/cuerrors.def:
src/sim/gpu.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/base/base.h:
src/base/rftech.h:
