build-ci/tests/unit/test_parse.o: tests/unit/test_parse.c src/base/base.h \
 src/ptx/ptx.h src/ptx/ir.h src/ptx/ops.def tests/unit/unit.h
src/base/base.h:
src/ptx/ptx.h:
src/ptx/ir.h:
src/ptx/ops.def:
tests/unit/unit.h:
