build-ci/src/base/config.o: src/base/config.c src/base/config.h \
 src/base/config.def src/base/base.h src/base/json.h \
 src/sim/rf/models.def
src/base/config.h:
src/base/config.def:
src/base/base.h:
src/base/json.h:
src/sim/rf/models.def:
