build-ci/pic/src/ptx/lex.o: src/ptx/lex.c src/ptx/lex.h
src/ptx/lex.h:
