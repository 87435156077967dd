build-ci/src/analysis/interval.o: src/analysis/interval.c \
 src/analysis/interval.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/analysis/live.h src/analysis/cfg.h src/base/base.h
src/analysis/interval.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/live.h:
src/analysis/cfg.h:
src/base/base.h:
