build-ci/src/sim/gpu.o: src/sim/gpu.c src/sim/gpu.h src/base/config.h \
 src/base/config.def src/sim/tstats.h src/sim/tstats.def \
 src/analysis/occupancy.h src/analysis/pass.h src/analysis/regalloc.h \
 src/ptx/ir.h src/ptx/ops.def src/analysis/regmutex.h \
 src/analysis/schedule.h src/base/base.h src/ptx/ptx.h src/ptx/ir.h \
 src/sim/prog.h src/ptx/ir.h src/sim/decode.h src/sim/tex.h \
 src/sim/timing.h src/sim/warp.h src/sim/mem.h
src/sim/gpu.h:
src/base/config.h:
src/base/config.def:
src/sim/tstats.h:
src/sim/tstats.def:
src/analysis/occupancy.h:
src/analysis/pass.h:
src/analysis/regalloc.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/analysis/regmutex.h:
src/analysis/schedule.h:
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/sim/prog.h:
src/ptx/ir.h:
src/sim/decode.h:
src/sim/tex.h:
src/sim/timing.h:
src/sim/warp.h:
src/sim/mem.h:
