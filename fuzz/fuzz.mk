# fuzz.mk -- rfsim's libFuzzer targets (fuzz/*.c; README "Fuzzing"), included by
# the Makefile:
#
#   make fuzz                        build them, then run each FUZZ_SECONDS (10)
#   make fuzz FUZZ_TARGETS=ptx       only some: ptx config sweep fatbin
#   make fuzz-long                   each FUZZ_LONG_SECONDS (3600), one after another
#
# The build compiles FUZZ_JOBS files at once (the processors), unless make's own -j
# says otherwise; the targets then run one at a time, one process each.
#
# The targets need clang's libFuzzer (Debian: clang, libclang-rt-14-dev; scripts/setup
# installs them).  Everything is compiled again by a recursive make with the
# Makefile's own rules, BUILD=$(FUZZ_BUILD), CC=$(FUZZ_CC) and the fuzzer's
# instrumentation with AddressSanitizer and UBSan (every UBSan report fatal).  A
# target links the command's objects but main.o, the workloads, librfsim and
# libcudart's fatbin.o.  fuzz/run runs them (corpora and logs under FUZZ_BUILD);
# seeds come from the repository's files through fuzz/seeds.c, into
# $(FUZZ_BUILD)/fuzz/seeds/, and from fuzz/seeds/ (committed: hand-made seeds and
# the minimized inputs of the bugs fuzzing found).

FUZZ_CC           ?= clang
FUZZ_BUILD        ?= build-fuzz
FUZZ_SECONDS      ?= 10
FUZZ_LONG_SECONDS ?= 3600
FUZZ_TARGETS      ?= ptx config sweep fatbin
FUZZ_JOBS         ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SAN          := -fsanitize=fuzzer-no-link,address,undefined \
                     -fno-sanitize-recover=undefined -fno-omit-frame-pointer

.PHONY: fuzz fuzz-long fuzz-build fuzz-bins
fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: $(FUZZ_CC) not found" \
	  "(Debian: clang libclang-rt-14-dev; scripts/setup)"; exit 2; }
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(FUZZ_JOBS)) \
	  BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT=-O1 SAN="$(FUZZ_SAN)" fuzz-bins

fuzz: fuzz-build
	fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-long: fuzz-build
	fuzz/run $(FUZZ_BUILD) $(FUZZ_LONG_SECONDS) $(FUZZ_TARGETS)

# ---- every build: the targets without libFuzzer, for tests/test_fuzz.py ---------

# $(BUILD)/replay/TARGET FILE...: fuzz/replay.c's main around the target, built
# with the build's compiler and sanitizers; `make test` replays fuzz/seeds/ with them
FUZZ_ALL    := ptx config sweep fatbin
FUZZ_REPLAY := $(FUZZ_ALL:%=$(BUILD)/replay/%)
FZ_CLI      := $(filter-out $(BUILD)/src/cli/main.o,$(OBJ_CLI)) $(BUILD)/src/cudart/fatbin.o
FZ_LIBS     := $(BUILD)/fuzz/libfuzz.a $(OBJ_WL) $(BUILD)/librfsim.a $(LDLIBS) -lcjson \
               -lzstd -llz4
test: $(FUZZ_REPLAY)

$(BUILD)/fuzz/libfuzz.a: $(FZ_CLI)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/replay/%: fuzz/%.c fuzz/replay.c fuzz/fuzz.h $(BUILD)/fuzz/libfuzz.a $(OBJ_WL) \
                   $(BUILD)/librfsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ifuzz -DFUZZ_ROOT='"$(CURDIR)"' $(LDFLAGS) -o $@ $< fuzz/replay.c \
	  $(FZ_LIBS)

# ---- inside the recursive make: BUILD is $(FUZZ_BUILD) --------------------------

FZ        := $(BUILD)/fuzz
FZ_PTX    := $(shell find tests/ptx tests/sem -name '*.ptx' | sort) $(PTX_WL)
FZ_FATBIN := workloads/saxpy/saxpy.ptx tests/ptx/ltrf_stall.ptx tests/ptx/hand_nvcc11.ptx

fuzz-bins: $(FUZZ_TARGETS:%=$(FZ)/%) $(FZ)/seeds.stamp

$(FZ)/%: fuzz/%.c fuzz/fuzz.h $(FZ)/libfuzz.a $(OBJ_WL) $(BUILD)/librfsim.a
	$(CC) $(CFLAGS) -Ifuzz -DFUZZ_ROOT='"$(CURDIR)"' -fsanitize=fuzzer -o $@ $< $(FZ_LIBS)

# the seed generator is a plain program
$(FZ)/mkseeds: fuzz/seeds.c src/exp/experiments.def src/base/config.def src/ptx/ops.def
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 $(WARN) -D_GNU_SOURCE -Isrc -o $@ $< -lzstd -llz4

$(FZ)/seeds.stamp: $(FZ)/mkseeds $(FZ_PTX) $(wildcard configs/*.cfg) fuzz/fuzz.mk
	@rm -rf $(FZ)/seeds
	@mkdir -p $(addprefix $(FZ)/seeds/,ptx config sweep fatbin)
	@$(FZ)/mkseeds ptx $(FZ)/seeds/ptx $(FZ_PTX)
	$(FZ)/mkseeds config $(FZ)/seeds/config $(wildcard configs/*.cfg)
	$(FZ)/mkseeds sweep $(FZ)/seeds/sweep
	$(FZ)/mkseeds fatbin $(FZ)/seeds/fatbin $(FZ_FATBIN)
	$(FZ)/mkseeds dict ptx $(FZ)/seeds/ptx.dict
	$(FZ)/mkseeds dict config $(FZ)/seeds/config.dict
	$(FZ)/mkseeds dict sweep $(FZ)/seeds/sweep.dict $(PTX_WL) $(wildcard configs/*.cfg)
	@touch $@
