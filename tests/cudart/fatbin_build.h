/*
 * fatbin_build.h -- nvcc-style fatbins built by hand around PTX text, and
 * their registration the way nvcc's start-up code does it: how the C test
 * programs (fatbin_hand.c, graph_hand.c) reach libcudart without the CUDA
 * toolkit.  Header-only: static functions, one program each.
 */
#ifndef FATBIN_BUILD_H
#define FATBIN_BUILD_H

#include <lz4.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cudart.h"

enum { PLAIN, ZSTD, LZ4 };

typedef struct Fatbin {
	uint8_t *bytes;          /* the container */
	size_t len, cap;
	struct {                 /* the wrapper nvcc would emit beside it */
		uint32_t magic, version;
		const void *data;
		const void *unused;
	} wrapper;
} Fatbin;

static void put(Fatbin *f, const void *p, size_t n)
{
	if (f->len + n > f->cap) {
		f->cap = (f->len + n) * 2;
		f->bytes = realloc(f->bytes, f->cap);
	}
	memcpy(f->bytes + f->len, p, n);
	f->len += n;
}

static void put_le(Fatbin *f, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(v >> 8 * i);
		put(f, &b, 1);
	}
}

/* one entry: kind 1 (PTX) or 2 (ELF), for compute_/sm_<arch> */
static void entry(Fatbin *f, int kind, int arch, const char *payload, size_t n, int how)
{
	char *out = malloc(n + 1024);
	size_t stored = n;
	uint64_t flags = 0x11;
	if (how == ZSTD) {
		stored = ZSTD_compress(out, ZSTD_compressBound(n), payload, n, 3);
		flags |= 0x8000;
	} else if (how == LZ4) {
		stored = (size_t)LZ4_compress_default(payload, out, (int)n, LZ4_compressBound((int)n));
		flags |= 0x2000;
	} else {
		memcpy(out, payload, n);
	}
	size_t padded = (stored + 7) & ~(size_t)7;
	put_le(f, (uint64_t)kind, 2);
	put_le(f, 0x101, 2);
	put_le(f, 80, 4);                          /* header bytes, as CUDA 13 writes PTX */
	put_le(f, padded, 8);
	put_le(f, how == PLAIN ? 0 : stored, 4);
	put_le(f, 0x40, 4);
	put_le(f, 0, 2);                           /* PTX ISA 9.0 */
	put_le(f, 9, 2);
	put_le(f, (uint64_t)arch, 4);
	put_le(f, 0, 8);                           /* no object name */
	put_le(f, flags, 8);
	put_le(f, 0, 8);
	put_le(f, how == PLAIN ? 0 : n, 8);
	put_le(f, 0, 16);                          /* the rest of the 80 bytes */
	put(f, out, stored);
	put_le(f, 0, (int)(padded - stored));
	free(out);
}

static void container_begin(Fatbin *f)
{
	memset(f, 0, sizeof *f);
	put_le(f, 0xBA55ED50, 4);
	put_le(f, 1, 2);
	put_le(f, 16, 2);
	put_le(f, 0, 8);                           /* entries' size, patched at the end */
}

/* register f's kernel `name` under host_stub, as nvcc's start-up code does */
static void **container_register(Fatbin *f, const void *host_stub, const char *name)
{
	uint64_t n = f->len - 16;
	memcpy(f->bytes + 8, &n, 8);
	f->wrapper.magic = 0x466243b1;
	f->wrapper.version = 1;
	f->wrapper.data = f->bytes;
	void **h = __cudaRegisterFatBinary(&f->wrapper);
	__cudaRegisterFunction(h, host_stub, (char *)name, name, -1, NULL, NULL, NULL, NULL, NULL);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) return perror(path), exit(2), NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	char *s = malloc(*n + 1);
	if (fread(s, 1, *n, f) != *n) exit(2);
	s[*n] = 0;
	fclose(f);
	return s;
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
	exit(1); } } while (0)

#endif
