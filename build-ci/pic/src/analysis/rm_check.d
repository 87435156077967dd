build-ci/pic/src/analysis/rm_check.o: src/analysis/rm_check.c \
 src/analysis/ra_int.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/live.h src/analysis/cfg.h src/analysis/regalloc.h \
 src/analysis/regmutex.h src/base/config.h src/base/config.def \
 src/base/base.h
src/analysis/ra_int.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/regalloc.h:
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/base/base.h:
