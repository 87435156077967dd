build-ci/src/sim/decode.o: src/sim/decode.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/base/base.h src/sim/decode_int.h \
 src/sim/decode.h src/ptx/ir.h src/sim/gpu.h src/base/config.h \
 src/base/config.def src/sim/tstats.h src/sim/tstats.def src/sim/prog.h
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
src/sim/decode_int.h:
src/sim/decode.h:
src/ptx/ir.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/prog.h:
