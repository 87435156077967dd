build-ci/pic/src/ptx/parse.o: src/ptx/parse.c src/ptx/parse.h \
 src/ptx/ir.h src/ptx/ops.def src/ptx/lex.h src/base/base.h src/ptx/ptx.h
src/ptx/parse.h:
src/ptx/ir.h:
src/ptx/ops.def:
src/ptx/lex.h:
src/base/base.h:
src/ptx/ptx.h:
