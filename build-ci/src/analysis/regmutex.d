build-ci/src/analysis/regmutex.o: src/analysis/regmutex.c \
 src/analysis/regmutex.h src/base/config.h src/base/config.def \
 src/ptx/ir.h src/ptx/ops.def src/analysis/occupancy.h \
 src/analysis/ra_int.h src/analysis/cfg.h src/analysis/live.h \
 src/analysis/cfg.h src/analysis/regalloc.h src/base/base.h \
 src/base/rftech.h src/sim/rf/models.def
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/occupancy.h:
src/analysis/ra_int.h:
src/analysis/cfg.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/regalloc.h:
src/base/base.h:
src/base/rftech.h:
src/sim/rf/models.def:
