build-ci/pic/src/sim/rf/banks.o: src/sim/rf/banks.c src/sim/rf/banks.h \
 src/base/config.h src/base/config.def src/base/base.h src/base/rftech.h
src/sim/rf/banks.h:
src/base/config.h:
src/base/config.def:
src/base/base.h:
src/base/rftech.h:
