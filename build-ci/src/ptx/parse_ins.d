build-ci/src/ptx/parse_ins.o: src/ptx/parse_ins.c src/base/base.h \
 src/ptx/parse.h src/ptx/ir.h src/ptx/ops.def src/ptx/lex.h
src/base/base.h:
src/ptx/parse.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/ptx/lex.h:
