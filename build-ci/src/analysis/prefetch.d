build-ci/src/analysis/prefetch.o: src/analysis/prefetch.c \
 src/analysis/interval.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/ra_int.h src/analysis/live.h src/analysis/cfg.h \
 src/analysis/regalloc.h src/base/config.h src/base/config.def \
 src/base/base.h src/base/json.h src/sim/rf/models.def
src/analysis/interval.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/ra_int.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/regalloc.h:
src/base/config.h:
src/base/config.def:
src/base/base.h:
src/base/json.h:
src/sim/rf/models.def:
