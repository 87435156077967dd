build-ci/src/sim/decode_ins.o: src/sim/decode_ins.c src/analysis/cfg.h \
 src/ptx/ir.h src/ptx/ops.def src/base/base.h src/sim/decode_int.h \
 src/sim/decode.h src/ptx/ir.h src/sim/eval.h src/sim/prog.h \
 src/sim/gpu.h src/base/config.h src/base/config.def src/sim/tstats.h \
 src/sim/tstats.def
src/analysis/cfg.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/base/base.h:
src/sim/decode_int.h:
src/sim/decode.h:
src/ptx/ir.h:
src/sim/eval.h:
src/sim/prog.h:
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
