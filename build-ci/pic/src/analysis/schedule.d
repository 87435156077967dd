build-ci/pic/src/analysis/schedule.o: src/analysis/schedule.c \
 src/analysis/schedule.h src/ptx/ir.h src/ptx/ops.def src/analysis/cfg.h \
 src/analysis/live.h src/analysis/cfg.h src/analysis/ra_int.h \
 src/analysis/regalloc.h src/base/base.h
src/analysis/schedule.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/cfg.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/ra_int.h:
src/analysis/regalloc.h:
src/base/base.h:
