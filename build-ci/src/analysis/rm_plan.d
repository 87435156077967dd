build-ci/src/analysis/rm_plan.o: src/analysis/rm_plan.c \
 src/analysis/regmutex.h src/base/config.h src/base/config.def \
 src/ptx/ir.h src/ptx/ops.def src/analysis/rm_int.h src/analysis/cfg.h \
 src/analysis/live.h src/analysis/cfg.h src/analysis/ra_int.h \
 src/analysis/regalloc.h src/base/base.h
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/rm_int.h:
src/analysis/cfg.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/ra_int.h:
src/analysis/regalloc.h:
src/base/base.h:
