build-ci/src/mem/coalesce.o: src/mem/coalesce.c src/mem/mem.h \
 src/base/config.h src/base/config.def src/mem/calendar.h \
 src/sim/tstats.h src/sim/tstats.def src/sim/decode.h src/ptx/ir.h \
 src/ptx/ops.def src/sim/warp.h src/sim/gpu.h src/sim/mem.h
src/mem/mem.h:
src/base/config.h:
src/base/config.def:
src/mem/calendar.h:
src/sim/tstats.h:
src/sim/tstats.def:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/sim/warp.h:
src/sim/gpu.h:
src/sim/mem.h:
