# cudart.mk -- build $(BUILD)/libcudart.so.13, rfsim's drop-in CUDA runtime
# (included by the Makefile; plain `make` builds it).
#
# A program built by nvcc with `-cudart shared` loads it in place of
# NVIDIA's when run with LD_LIBRARY_PATH=build (README: "Running your own
# CUDA program").  The library is src/cudart/ on top of librfsim, all
# compiled again as position-independent code into $(BUILD)/pic/ (the
# static library and the rfsim binary stay non-PIC); librfsim's objects go
# through an archive, so the link takes only the files the runtime needs.
# The soname and the version script (libcudart.map) make the loader take it
# for NVIDIA's libcudart.so.13; -z defs makes a missing symbol a link error
# rather than a failure in someone's program.  The fatbin reader needs the
# system's zstd and lz4 (Debian: libzstd-dev, liblz4-dev).

CUDART_LIB := $(BUILD)/libcudart.so.13
CUDART_OBJ := $(patsubst %.c,$(BUILD)/pic/%.o,$(sort $(wildcard src/cudart/*.c)))
CUDART_PIC := $(BUILD)/pic/librfsim.a
CUDART_MAP := src/cudart/libcudart.map

all: $(CUDART_LIB)

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(CUDART_PIC): $(SRC_LIB:%.c=$(BUILD)/pic/%.o)
	@rm -f $@
	ar rcs $@ $^

$(CUDART_LIB): $(CUDART_OBJ) $(CUDART_PIC) $(CUDART_MAP)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libcudart.so.13 \
	  -Wl,--version-script=$(CUDART_MAP) -Wl,-z,defs -Wl,--as-needed -o $@ \
	  $(CUDART_OBJ) $(CUDART_PIC) $(LDLIBS) -lzstd -llz4
