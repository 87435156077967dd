/*
 * fatbin_hand.c -- the registration path of libcudart without nvcc: this
 * program builds nvcc-style fatbins by hand around a PTX file and
 * registers them the way nvcc's start-up code does, then launches their
 * kernel through cudaLaunchKernel.  So the fatbin reader (plain, zstd and
 * LZ4 entries, the choice among several PTX entries, the refusal of
 * machine code only) is tested on machines without the CUDA toolkit, CI's
 * among them.  Built by tests/test_cudart.py against build/libcudart.so.13
 * and the system's libzstd and liblz4:
 *
 *   fatbin_hand SAXPY.ptx   -> "PASS" and exit 0
 *
 * The PTX must define saxpy(int n, float a, const float *x, float *y),
 * y = a*x + y (workloads/saxpy/saxpy.ptx).
 */
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

static void **container_register(Fatbin *f, const void *host_stub)
{
	uint64_t n = f->len - 16;
	memcpy(f->bytes + 8, &n, 8);
	f->wrapper.magic = 0x466243b1;
	f->wrapper.version = 1;
	f->wrapper.data = f->bytes;
	void **h = __cudaRegisterFatBinary(&f->wrapper);
	__cudaRegisterFunction(h, host_stub, (char *)"saxpy", "saxpy", -1, NULL, NULL, NULL, NULL,
	                       NULL);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_) { \
	fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
	exit(1); } } while (0)

/* y = 2x + y through the kernel registered under stub; 0 if right */
static cudaError_t run_saxpy(const void *stub)
{
	enum { N = 1000 };
	float x[N], y[N], *dx, *dy, a = 2.0f;
	int n = N;
	for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
	CHECK(cudaMalloc((void **)&dx, sizeof x));
	CHECK(cudaMalloc((void **)&dy, sizeof y));
	CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
	void *args[] = {&n, &a, &dx, &dy};
	cudaError_t e = cudaLaunchKernel(stub, (dim3){4, 1, 1}, (dim3){128, 1, 1}, args, 0, NULL);
	if (!e) {
		CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
		for (int i = 0; i < N; i++)
			if (y[i] != 2.0f * i + 1.0f) {
				fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], 2.0f * i + 1.0f);
				exit(1);
			}
	}
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
	return e;
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

int main(int argc, char **argv)
{
	static const char stubs[6] = {0};   /* six distinct "host stub" addresses */
	static const char bad[] = ".version 9.0\n.target sm_90\nthis is not PTX\n";
	static const char elf[] = "\177ELF machine code nobody can simulate";
	if (argc != 2) return fprintf(stderr, "usage: fatbin_hand SAXPY.ptx\n"), 2;
	size_t n;
	char *ptx = slurp(argv[1], &n);
	Fatbin f[6];
	for (int how = PLAIN; how <= LZ4; how++) {   /* one PTX entry, stored three ways */
		container_begin(&f[how]);
		entry(&f[how], 2, 80, elf, sizeof elf, ZSTD);
		entry(&f[how], 1, 80, ptx, n + 1, how);
		container_register(&f[how], &stubs[how]);
	}
	container_begin(&f[3]);                     /* compute_70 fits the device; 90 does not */
	entry(&f[3], 1, 90, bad, sizeof bad, ZSTD);
	entry(&f[3], 1, 70, ptx, n + 1, ZSTD);
	container_register(&f[3], &stubs[3]);
	container_begin(&f[4]);                     /* only newer PTX: taken all the same */
	entry(&f[4], 1, 120, ptx, n + 1, LZ4);
	container_register(&f[4], &stubs[4]);
	container_begin(&f[5]);                     /* machine code only */
	entry(&f[5], 2, 90, elf, sizeof elf, PLAIN);
	container_register(&f[5], &stubs[5]);

	for (int i = 0; i < 5; i++) CHECK(run_saxpy(&stubs[i]));
	cudaError_t e = run_saxpy(&stubs[5]);
	if (e != cudaErrorNoKernelImageForDevice) {
		fprintf(stderr, "SASS-only fatbin: %s\n", cudaGetErrorName(e));
		return 1;
	}
	printf("PASS\n");
	return 0;
}
