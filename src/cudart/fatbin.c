/*
 * fatbin.c -- find the PTX that nvcc embedded in a CUDA program.
 *
 * For every translation unit with device code nvcc emits a fatbinary and
 * a small wrapper pointing at it, and passes the wrapper to
 * __cudaRegisterFatBinary at start-up.  NVIDIA does not document the
 * format; the layout below is the one nvcc 11-13 produce (it agrees with
 * public reverse-engineering, e.g. n-eiling/cuda-fatbin-decompression, and
 * with what tests/test_cudart.py builds here).  All integers little-endian.
 *
 *   wrapper    u32 magic 0x466243b1, u32 version (1; 2 = a device link's,
 *              below), u64 address of the container, u64 filename (unused)
 *              or, in version 2, the list of prelinked containers
 *   container  u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
 *              u64 bytes of entries that follow the header
 *   entry      u16 kind (1 PTX, 2 ELF/SASS), u16 ?, u32 header size
 *              (64, or 80 for CUDA 13's PTX, 112 for its newest SASS),
 *              u64 payload bytes (padded to 8), u32 compressed bytes,
 *              u32 ?, u16 minor, u16 major (the PTX ISA or ELF version),
 *              u32 arch (the XX of compute_XX / sm_XX), u32 name offset,
 *              u32 name length, u64 flags, u64 ?, u64 uncompressed bytes;
 *              the payload follows the entry's header.
 *
 * Flags 0x8000 mean the payload is one zstd frame (nvcc 13's default),
 * 0x2000 one LZ4 block (`-compress-mode=speed`, and older nvccs);
 * neither means plain text, NUL-padded (`--no-compress`).  We decompress
 * with the system's libzstd and liblz4.
 *
 * Which PTX.  A fatbin may carry PTX for several virtual architectures;
 * like the driver on a real GPU we take the newest one the simulated
 * device's compute capability admits, and, when every entry is newer,
 * the oldest (rfsim does not check PTX targets, so it usually still runs).
 * A fatbin with SASS only cannot run: the message says how to rebuild.
 *
 * Relocatable device code (nvcc -rdc=true, or -dc and -dlink).  Each
 * unit's fatbin (section __nv_relfatbin; entries flagged 0x10,
 * relocatable) holds its relocatable cubin and its PTX, with `.extern`
 * declarations of what other units define.  Its host code never
 * registers it: it calls __cudaRegisterLinkedBinary_<module id>, which
 * the device link's stub (nvcc's crt/link.stub) defines; when the last
 * unit has called, the stub registers ONE version-2 wrapper whose
 * container is nvlink's output -- the linked sm_XX cubin, or an empty
 * container when the build embeds PTX only -- and whose fourth field
 * points at a NULL-terminated array of the units' containers (each
 * unit's wrapper's data pointer), then runs every unit's registration
 * callback (kernels, variables) with that one handle.  The linked image
 * never holds PTX, so rfsim takes the PTX of each listed container
 * (fatbin_linked_ptx) and links it itself (src/ptx/link.c).  A unit with
 * machine code only (-gencode ...,code=sm_XX) or NVVM IR for link-time
 * optimization (-dlto; entry kinds other than PTX and ELF) is refused.
 */
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/base.h"
#include "cudart/rt.h"

enum {
	WRAPPER_MAGIC = 0x466243b1,
	CONTAINER_MAGIC = 0xBA55ED50,
	ENTRY_MIN = 64,              /* smallest entry header */
	KIND_PTX = 1,
	KIND_ELF = 2,
	FLAG_LZ4 = 0x2000,
	FLAG_ZSTD = 0x8000,
	MAX_PTX_BYTES = 128 << 20,   /* as much PTX as rfsim reads from a file (base.c) */
};

typedef struct Entry {           /* one entry's header, decoded */
	unsigned kind, arch, major, minor;
	uint64_t flags;
	const uint8_t *payload;
	uint64_t payload_bytes;      /* as stored (padded) */
	uint64_t compressed_bytes;   /* 0 when stored plain */
	uint64_t plain_bytes;        /* after decompression; 0 when stored plain */
} Entry;

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* decode the entry at p, which has `left` bytes up to the container's end;
 * -> bytes it spans, 0 if it does not fit */
static uint64_t entry_read(const uint8_t *p, uint64_t left, Entry *e)
{
	if (left < ENTRY_MIN) return 0;
	uint32_t hsize = rd32(p + 4);
	uint64_t psize = rd64(p + 8);
	if (hsize < ENTRY_MIN || hsize > left || psize > left - hsize) return 0;
	*e = (Entry){
		.kind = rd16(p), .minor = rd16(p + 24), .major = rd16(p + 26), .arch = rd32(p + 28),
		.flags = rd64(p + 40), .payload = p + hsize, .payload_bytes = psize,
		.compressed_bytes = rd32(p + 16), .plain_bytes = rd64(p + 56),
	};
	return hsize + psize;
}

/* the entry's PTX as a NUL-terminated string; RF_EINPUT if it does not decode */
static int entry_text(const Entry *e, FatbinPtx *out)
{
	int zstd = (e->flags & FLAG_ZSTD) != 0, lz4 = (e->flags & FLAG_LZ4) != 0;
	if (!zstd && !lz4) {         /* plain text, NUL-padded */
		size_t n = strnlen((const char *)e->payload, e->payload_bytes);
		out->text = xstrndup((const char *)e->payload, n);
		out->len = n;
		return RF_OK;
	}
	uint64_t csize = e->compressed_bytes, psize = e->plain_bytes;
	if (!csize || csize > e->payload_bytes || !psize) {
		err_set("fatbin: compressed PTX entry (compute_%u) has sizes %llu -> %llu", e->arch,
		        (unsigned long long)csize, (unsigned long long)psize);
		return RF_EINPUT;
	}
	if (psize > MAX_PTX_BYTES) {
		err_set("fatbin: compute_%u PTX of %llu bytes, more than the %d MiB limit for PTX",
		        e->arch, (unsigned long long)psize, MAX_PTX_BYTES >> 20);
		return RF_EINPUT;
	}
	unsigned long long framed = zstd ? ZSTD_getFrameContentSize(e->payload, csize) : psize;
	if (framed != psize && framed != ZSTD_CONTENTSIZE_UNKNOWN &&
	    framed != ZSTD_CONTENTSIZE_ERROR) {      /* known before psize bytes are allocated */
		err_set("fatbin: compute_%u PTX: a zstd frame of %llu bytes where the entry says %llu",
		        e->arch, framed, (unsigned long long)psize);
		return RF_EINPUT;
	}
	char *buf = xmalloc(psize + 1);
	uint64_t got;
	if (zstd) {
		size_t r = ZSTD_decompress(buf, psize, e->payload, csize);
		got = ZSTD_isError(r) ? 0 : r;
		if (ZSTD_isError(r))
			err_set("fatbin: zstd: %s (compute_%u PTX)", ZSTD_getErrorName(r), e->arch);
	} else {
		int r = csize > INT32_MAX ? -1
		                          : LZ4_decompress_safe((const char *)e->payload, buf,
		                                                (int)csize, (int)psize);
		got = r > 0 ? (uint64_t)r : 0;
		if (r <= 0) err_set("fatbin: LZ4 block does not decode (compute_%u PTX)", e->arch);
	}
	if (got != psize) {
		if (got) err_set("fatbin: compute_%u PTX decompressed to %llu bytes, not %llu",
		                 e->arch, (unsigned long long)got, (unsigned long long)psize);
		free(buf);
		return RF_EINPUT;
	}
	buf[psize] = 0;
	out->text = buf;
	out->len = strlen(buf);      /* the stored text may end in NULs */
	return RF_OK;
}

/* better PTX entry for a device that takes compute_<max_arch> at most */
static int prefer(const Entry *a, const Entry *best, int max_arch)
{
	if (!best) return 1;
	int a_fits = (int)a->arch <= max_arch, b_fits = (int)best->arch <= max_arch;
	if (a_fits != b_fits) return a_fits;
	return a_fits ? a->arch > best->arch : a->arch < best->arch;
}

/* no PTX: say how to rebuild, for the newest machine code there is (sass_arch) */
static int no_ptx(const char *sass, int sass_arch, int max_arch)
{
	if (*sass) {
		err_set("this program's GPU code has no PTX, only machine code for %s, which rfsim "
		        "cannot run: rfsim simulates PTX.  Rebuild it with PTX embedded: add "
		        "-gencode arch=compute_%d,code=compute_%d to nvcc's options, or use "
		        "-arch=sm_%d, which embeds both", sass, sass_arch, sass_arch, sass_arch);
	} else {
		err_set("this program's fatbinary holds no GPU code at all.  Rebuild it with PTX "
		        "embedded, e.g. nvcc -gencode arch=compute_%d,code=compute_%d or -arch=sm_%d",
		        max_arch, max_arch, max_arch);
	}
	return RF_EINPUT;
}

/* the best PTX of the container at c, of which avail bytes may be read; RF_EINPUT with
 * err_msg().  Offsets, not pointers, walk the entries: a corrupt size must be a message,
 * not a pointer past the object (undefined behaviour before anything is read there). */
static int container_ptx(const uint8_t *c, uint64_t avail, int max_arch, FatbinPtx *out)
{
	if (!c || avail < 16 || rd32(c) != CONTAINER_MAGIC || rd16(c + 6) < 16) {
		err_set("fatbin: no fatbin container (magic %#x) behind the wrapper",
		        c && avail >= 4 ? rd32(c) : 0);
		return RF_EINPUT;
	}
	uint64_t at = rd16(c + 6), size = rd64(c + 8);
	if (at > avail || size > avail - at) {
		err_set("fatbin: container of %llu bytes of entries overruns the %llu bytes there",
		        (unsigned long long)size, (unsigned long long)(avail - 16));
		return RF_EINPUT;
	}
	uint64_t end = at + size;
	Entry e, best = {0};
	int found = 0, sass_arch = 0, other = 0;
	char sass[128] = "";
	for (uint64_t n; at < end; at += n) {
		if (!(n = entry_read(c + at, end - at, &e))) {
			err_set("fatbin: entry at offset %llu overruns its container",
			        (unsigned long long)at);
			return RF_EINPUT;
		}
		if (e.kind == KIND_PTX) {
			if (prefer(&e, found ? &best : NULL, max_arch)) best = e, found = 1;
		} else if (e.kind != KIND_ELF) {
			other = (int)e.arch;     /* NVVM IR (-dlto): kind 8 in nvcc 13 */
		} else {
			if ((int)e.arch > sass_arch) sass_arch = (int)e.arch;
			if (strlen(sass) + 16 < sizeof sass)
				snprintf(sass + strlen(sass), sizeof sass - strlen(sass), "%ssm_%u",
				         *sass ? ", " : "", e.arch);
		}
	}
	if (!found && other) {
		err_set("this program's GPU code is NVVM IR for JIT link-time optimization only "
		        "(nvcc -dlto, code=lto_%d), which rfsim cannot run: rfsim simulates PTX.  "
		        "Rebuild it with PTX embedded: -arch=sm_%d (with or without -dlto) embeds "
		        "compute_%d PTX", other, other, other);
		return RF_EINPUT;
	}
	if (!found) return no_ptx(sass, sass_arch, max_arch);
	out->arch = (int)best.arch;
	return entry_text(&best, out);
}

int fatbin_container_ptx(const void *container, uint64_t avail, int max_arch, FatbinPtx *out)
{
	memset(out, 0, sizeof *out);
	return container_ptx(container, avail, max_arch, out);
}

static int wrapper_check(const uint8_t *w)
{
	if (w && rd32(w) == WRAPPER_MAGIC) return RF_OK;
	err_set("fatbin: registered object is not an nvcc fatbin wrapper (magic %#x)",
	        w ? rd32(w) : 0);
	return RF_EINPUT;
}

int fatbin_linked(const void *wrapper)
{
	return wrapper && !wrapper_check(wrapper) && rd32((const uint8_t *)wrapper + 4) == 2;
}

int fatbin_ptx(const void *wrapper, int max_arch, FatbinPtx *out)
{
	memset(out, 0, sizeof *out);
	const uint8_t *w = wrapper;
	if (wrapper_check(w)) return RF_EINPUT;
	if (rd32(w + 4) != 1) {
		err_set("fatbin: wrapper version %u: not a translation unit's fatbin", rd32(w + 4));
		return RF_EINPUT;
	}
	return container_ptx((const uint8_t *)(uintptr_t)rd64(w + 8), UINT64_MAX, max_arch, out);
}

int fatbin_linked_ptx(const void *wrapper, int max_arch, FatbinPtx **out, size_t *n)
{
	*out = NULL, *n = 0;
	const uint8_t *w = wrapper;
	if (wrapper_check(w)) return RF_EINPUT;
	const uint8_t *const *list = (const uint8_t *const *)(uintptr_t)rd64(w + 16);
	if (rd32(w + 4) != 2 || !list || !list[0]) {
		err_set("fatbin: a device link's wrapper (version %u) lists no translation units",
		        rd32(w + 4));
		return RF_EINPUT;
	}
	size_t k = 0;
	while (list[k]) k++;
	FatbinPtx *v = xcalloc(k, sizeof *v);
	for (size_t i = 0; i < k; i++) {
		if (container_ptx(list[i], UINT64_MAX, max_arch, &v[i])) {
			char why[1024];
			snprintf(why, sizeof why, "%s", err_msg());
			err_set("relocatable device code, translation unit %zu of %zu: %s", i + 1, k, why);
			for (size_t j = 0; j < i; j++) free(v[j].text);
			free(v);
			return RF_EINPUT;
		}
	}
	*out = v, *n = k;
	return RF_OK;
}
