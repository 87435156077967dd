build-ci/src/analysis/loop.o: src/analysis/loop.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/base/base.h
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
