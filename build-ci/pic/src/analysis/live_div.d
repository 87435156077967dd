build-ci/pic/src/analysis/live_div.o: src/analysis/live_div.c \
 src/analysis/live.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/base/base.h
src/analysis/live.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
