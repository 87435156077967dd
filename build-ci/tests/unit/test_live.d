build-ci/tests/unit/test_live.o: tests/unit/test_live.c tests/unit/unit.h \
 src/analysis/live.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/base/base.h tests/unit/tfunc.h src/ptx/ptx.h src/ptx/ir.h
tests/unit/unit.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
tests/unit/tfunc.h:
src/ptx/ptx.h:
src/ptx/ir.h:
