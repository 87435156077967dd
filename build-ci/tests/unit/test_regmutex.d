build-ci/tests/unit/test_regmutex.o: tests/unit/test_regmutex.c \
 tests/unit/unit.h src/analysis/pass.h src/analysis/regalloc.h \
 src/ptx/ir.h src/ptx/ops.def src/analysis/regmutex.h src/base/config.h \
 src/base/config.def src/analysis/schedule.h src/base/base.h \
 src/base/config.h src/ptx/ptx.h src/ptx/ir.h
tests/unit/unit.h:
src/analysis/pass.h:
src/analysis/regalloc.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/regmutex.h:
src/base/config.h:
src/base/config.def:
src/analysis/schedule.h:
src/base/base.h:
src/base/config.h:
src/ptx/ptx.h:
src/ptx/ir.h:
