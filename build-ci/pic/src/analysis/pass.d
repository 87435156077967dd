build-ci/pic/src/analysis/pass.o: src/analysis/pass.c src/analysis/pass.h \
 src/analysis/regalloc.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/regmutex.h src/base/config.h src/base/config.def \
 src/analysis/schedule.h src/analysis/cfg.h src/analysis/interval.h \
 src/analysis/live.h src/analysis/cfg.h src/analysis/occupancy.h \
 src/analysis/regshare.h src/base/base.h src/ptx/ptx.h src/ptx/ir.h
src/analysis/pass.h:
src/analysis/regalloc.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/analysis/schedule.h:
src/analysis/cfg.h:
src/analysis/interval.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/occupancy.h:
src/analysis/regshare.h:
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
