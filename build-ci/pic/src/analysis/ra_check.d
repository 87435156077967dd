build-ci/pic/src/analysis/ra_check.o: src/analysis/ra_check.c \
 src/analysis/ra_int.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/live.h src/analysis/cfg.h src/analysis/regalloc.h \
 src/base/base.h
src/analysis/ra_int.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/regalloc.h:
src/base/base.h:
