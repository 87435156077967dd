/*
 * fatbin.c -- fuzz target: libcudart's fatbin reader (src/cudart/fatbin.c),
 * which finds the PTX nvcc embedded in a program: the container's entries,
 * the choice among PTX entries, zstd and LZ4 decompression.
 *
 * Input: one byte, then fatbin containers.  Bit 0 of the byte chooses the
 * entry point: 0, the first container through fatbin_container_ptx, bounded
 * by the input's length; 1, a device link's wrapper (version 2) listing the
 * containers that follow one another in the input, through fatbin_linked
 * and fatbin_linked_ptx, as libcudart registers nvcc -rdc programs.  Those
 * trust each container's header as nvcc's start-up code hands it over, so
 * the list takes only containers whose header fits the input.  Bits 1-4
 * choose the device's compute capability (max_arch).
 */
#include "fuzz.h"
#include "cudart/rt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static const int arches[16] = {20, 30, 50, 52, 60, 61, 70, 75, 80, 86, 89, 90, 100, 103, 120, 999};

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
	return v;
}

static void linked(const uint8_t *c, size_t n, int max_arch)
{
	enum { MAX_UNITS = 16 };
	const uint8_t *list[MAX_UNITS + 1];
	int k = 0;
	while (k < MAX_UNITS && n >= 16) {   /* containers whose header fits what is left */
		uint64_t h = rd(c + 6, 2), size = rd(c + 8, 8);
		if (h > n || size > n - h) break;
		list[k++] = c;
		c += h + size, n -= h + size;
		if (!h && !size) break;
	}
	list[k] = NULL;
	struct { uint32_t magic, version; const void *data; const void *units; } w = {
		0x466243b1, 2, NULL, list};
	if (!fatbin_linked(&w)) die("a version-2 wrapper is not a device link's");
	FatbinPtx *v;
	size_t nv;
	if (fatbin_linked_ptx(&w, max_arch, &v, &nv) == RF_OK) {
		for (size_t i = 0; i < nv; i++) {
			if (strlen(v[i].text) != v[i].len) die("unit %zu: length %zu", i, v[i].len);
			free(v[i].text);
		}
		free(v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) return 0;
	int max_arch = arches[data[0] >> 1 & 15];
	if (data[0] & 1) {
		linked(data + 1, size - 1, max_arch);
	} else {
		FatbinPtx p;
		if (fatbin_container_ptx(data + 1, size - 1, max_arch, &p) == RF_OK) {
			if (strlen(p.text) != p.len) die("PTX of length %zu", p.len);
			free(p.text);
		}
	}
	err_clear();
	return 0;
}
