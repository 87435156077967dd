build-ci/pic/src/cudart/stubs.o: src/cudart/stubs.c src/cudart/stubs.def
src/cudart/stubs.def:
