build-ci/src/base/rftech.o: src/base/rftech.c src/base/rftech.h \
 src/base/config.h src/base/config.def src/base/rftech.def
src/base/rftech.h:
src/base/config.h:
src/base/config.def:
src/base/rftech.def:
