build-ci/src/analysis/regshare.o: src/analysis/regshare.c \
 src/analysis/regshare.h src/analysis/occupancy.h src/base/config.h \
 src/base/config.def src/ptx/ir.h src/ptx/ops.def src/analysis/cfg.h \
 src/base/base.h src/base/rftech.h src/sim/rf/models.def
src/analysis/regshare.h:
src/analysis/occupancy.h:
src/base/config.h:
src/base/config.def:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/cfg.h:
src/base/base.h:
src/base/rftech.h:
src/sim/rf/models.def:
