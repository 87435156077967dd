build-ci/pic/src/analysis/rm_home.o: src/analysis/rm_home.c \
 src/analysis/rm_int.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/live.h src/analysis/cfg.h src/analysis/ra_int.h \
 src/analysis/regalloc.h src/base/base.h
src/analysis/rm_int.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/ra_int.h:
src/analysis/regalloc.h:
src/base/base.h:
