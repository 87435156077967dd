build-ci/pic/src/analysis/strand.o: src/analysis/strand.c \
 src/analysis/interval.h src/analysis/cfg.h src/ptx/ir.h src/ptx/ops.def \
 src/base/base.h
src/analysis/interval.h:
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
