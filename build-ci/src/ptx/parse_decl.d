build-ci/src/ptx/parse_decl.o: src/ptx/parse_decl.c src/base/base.h \
 src/ptx/parse.h src/ptx/ir.h src/ptx/ops.def src/ptx/lex.h
src/base/base.h:
src/ptx/parse.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/ptx/lex.h:
