build-ci/tests/unit/test_alu_fp.o: tests/unit/test_alu_fp.c \
 tests/unit/alu_test.h src/sim/alu.h src/ptx/ir.h src/ptx/ops.def \
 tests/unit/unit.h
tests/unit/alu_test.h:
src/sim/alu.h:
src/ptx/ir.h:
src/ptx/ops.def:
tests/unit/unit.h:
