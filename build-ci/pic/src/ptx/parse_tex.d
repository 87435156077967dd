build-ci/pic/src/ptx/parse_tex.o: src/ptx/parse_tex.c src/ptx/parse.h \
 src/ptx/ir.h src/ptx/ops.def src/ptx/lex.h
src/ptx/parse.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/ptx/lex.h:
