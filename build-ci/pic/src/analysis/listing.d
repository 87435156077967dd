build-ci/pic/src/analysis/listing.o: src/analysis/listing.c \
 src/analysis/listing.h src/ptx/ir.h src/ptx/ops.def src/analysis/cfg.h \
 src/analysis/live.h src/analysis/cfg.h src/base/base.h src/ptx/ptx.h \
 src/ptx/ir.h
src/analysis/listing.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/cfg.h:
src/analysis/live.h:
src/analysis/cfg.h:
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
