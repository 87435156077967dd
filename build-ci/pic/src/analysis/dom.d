build-ci/pic/src/analysis/dom.o: src/analysis/dom.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/base/base.h
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
