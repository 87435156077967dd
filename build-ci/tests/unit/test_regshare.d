build-ci/tests/unit/test_regshare.o: tests/unit/test_regshare.c \
 tests/unit/unit.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/analysis/pass.h src/analysis/regalloc.h \
 src/ptx/ir.h src/ptx/ops.def src/analysis/regmutex.h \
 src/analysis/schedule.h src/analysis/regshare.h src/base/base.h \
 src/base/config.h tests/unit/tfunc.h src/ptx/ptx.h src/ptx/ir.h
tests/unit/unit.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/analysis/pass.h:
src/analysis/regalloc.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/regmutex.h:
src/analysis/schedule.h:
src/analysis/regshare.h:
src/base/base.h:
src/base/config.h:
tests/unit/tfunc.h:
src/ptx/ptx.h:
src/ptx/ir.h:
