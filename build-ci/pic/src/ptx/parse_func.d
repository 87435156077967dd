build-ci/pic/src/ptx/parse_func.o: src/ptx/parse_func.c src/base/base.h \
 src/ptx/parse.h src/ptx/ir.h src/ptx/ops.def src/ptx/lex.h
src/base/base.h:
src/ptx/parse.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/ptx/lex.h:
