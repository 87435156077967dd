build-ci/pic/src/analysis/live.o: src/analysis/live.c src/analysis/live.h \
 src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def src/base/base.h
src/analysis/live.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
