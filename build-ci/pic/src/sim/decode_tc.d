build-ci/pic/src/sim/decode_tc.o: src/sim/decode_tc.c src/base/base.h \
 src/sim/decode_int.h src/sim/decode.h src/ptx/ir.h src/ptx/ops.def
src/base/base.h:
src/sim/decode_int.h:
src/sim/decode.h:
src/ptx/ir.h:
src/ptx/ops.def:
