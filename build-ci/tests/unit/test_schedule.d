build-ci/tests/unit/test_schedule.o: tests/unit/test_schedule.c \
 tests/unit/unit.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/live.h src/analysis/cfg.h src/analysis/pass.h \
 src/analysis/regalloc.h src/analysis/regmutex.h src/base/config.h \
 src/base/config.def src/analysis/schedule.h src/base/base.h \
 src/base/config.h src/ptx/ptx.h src/ptx/ir.h
tests/unit/unit.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/live.h:
src/analysis/cfg.h:
src/analysis/pass.h:
src/analysis/regalloc.h:
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/analysis/schedule.h:
src/base/base.h:
src/base/config.h:
src/ptx/ptx.h:
src/ptx/ir.h:
