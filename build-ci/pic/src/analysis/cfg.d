build-ci/pic/src/analysis/cfg.o: src/analysis/cfg.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/base/base.h
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
