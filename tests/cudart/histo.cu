/*
 * histo.cu -- the CUDA samples' histogram64 and histogram256 schemes: 256
 * bins with a sub-histogram per warp in shared memory (the warp's bins
 * updated with shared atomicAdd on packed 8-bit data read as uint4),
 * merged per block and then across blocks by a second kernel; 64 bins
 * with per-thread byte counters in shared memory (no atomics:
 * threadIdx-swizzled columns) merged with a strided loop; and a
 * privatised global histogram with atomicAdd on unsigned long long
 * weights.  Exact integer checks against the CPU.
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "check.h"

enum { BINS = 256, WARPS = 6, THREADS = WARPS * 32, PARTIALS = 24, BIN64 = 64, T64 = 64 };

__global__ void hist256(const uint4 *d, int n4, unsigned *partial)
{
	__shared__ unsigned sub[WARPS * BINS];
	for (int i = threadIdx.x; i < WARPS * BINS; i += blockDim.x) sub[i] = 0;
	__syncthreads();
	unsigned *mine = sub + (threadIdx.x / 32) * BINS;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
		uint4 w = d[i];
		unsigned ws[4] = {w.x, w.y, w.z, w.w};
		for (int k = 0; k < 4; k++)
			for (int b = 0; b < 4; b++) atomicAdd(&mine[(ws[k] >> (8 * b)) & 255], 1u);
	}
	__syncthreads();
	for (int bin = threadIdx.x; bin < BINS; bin += blockDim.x) {
		unsigned s = 0;
		for (int w = 0; w < WARPS; w++) s += sub[w * BINS + bin];
		partial[blockIdx.x * BINS + bin] = s;
	}
}

__global__ void merge256(const unsigned *partial, unsigned *hist, int nparts)
{
	__shared__ unsigned acc[256];
	unsigned s = 0;
	for (int i = threadIdx.x; i < nparts; i += blockDim.x) s += partial[i * BINS + blockIdx.x];
	acc[threadIdx.x] = s;
	__syncthreads();
	for (int st = blockDim.x / 2; st > 0; st >>= 1) {
		if (threadIdx.x < st) acc[threadIdx.x] += acc[threadIdx.x + st];
		__syncthreads();
	}
	if (threadIdx.x == 0) hist[blockIdx.x] = acc[0];
}

/* histogram64: per-thread 8-bit counters, one column per thread, swizzled */
__global__ void hist64(const unsigned *d, int n, unsigned *partial)
{
	__shared__ unsigned char cnt[BIN64 * T64];
	for (int i = threadIdx.x; i < BIN64 * T64; i += blockDim.x) cnt[i] = 0;
	__syncthreads();
	int sw = ((threadIdx.x & 15) << 2) | (threadIdx.x >> 4);
	for (int i = blockIdx.x * blockDim.x + threadIdx.x, k = 0; i < n;
	     i += gridDim.x * blockDim.x, k++) {
		unsigned w = d[i];
		for (int b = 0; b < 4; b++) cnt[((w >> (8 * b + 2)) & 63) * T64 + sw]++;
		if (k == 62) break;            /* at most 63 words: 252 < 256 per counter */
	}
	__syncthreads();
	if (threadIdx.x < BIN64) {
		unsigned s = 0;
		for (int j = 0; j < T64; j++) s += cnt[threadIdx.x * T64 + (j + threadIdx.x) % T64];
		partial[blockIdx.x * BIN64 + threadIdx.x] = s;
	}
}

__global__ void weighted(const unsigned *d, int n, unsigned long long *hist)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&hist[d[i] % 37], (unsigned long long)d[i] << 20);
}

int main()
{
	const int n = 96 * 1024;                /* bytes */
	std::vector<uint32_t> data(n / 4);
	uint32_t x = 12345;
	for (auto &w : data) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		w = x & 0x3f3f7fffu;                 /* skewed bytes */
	}
	unsigned *dd, *dpart, *dh, *dp64;
	unsigned long long *dw;
	CHECK(cudaMalloc(&dd, n));
	CHECK(cudaMalloc(&dpart, PARTIALS * BINS * sizeof(unsigned)));
	CHECK(cudaMalloc(&dh, BINS * sizeof(unsigned)));
	CHECK(cudaMalloc(&dp64, 64 * BIN64 * sizeof(unsigned)));
	CHECK(cudaMalloc(&dw, 37 * sizeof(unsigned long long)));
	CHECK(cudaMemset(dw, 0, 37 * sizeof(unsigned long long)));
	CHECK(cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice));
	hist256<<<PARTIALS, THREADS>>>((const uint4 *)dd, n / 16, dpart);
	CHECK(cudaGetLastError());
	merge256<<<BINS, 256>>>(dpart, dh, PARTIALS);
	CHECK(cudaGetLastError());
	int words = n / 4, blocks64 = (words + 63 * T64 - 1) / (63 * T64);
	hist64<<<blocks64, T64>>>(dd, words, dp64);
	weighted<<<8, 128>>>(dd, words, dw);
	CHECK(cudaGetLastError());
	std::vector<unsigned> h(BINS), p64(blocks64 * BIN64);
	std::vector<unsigned long long> wh(37);
	CHECK(cudaMemcpy(h.data(), dh, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(p64.data(), dp64, p64.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(wh.data(), dw, 37 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
	std::vector<unsigned> r256(BINS, 0), r64(BIN64, 0), g64(BIN64, 0);
	std::vector<unsigned long long> rw(37, 0);
	for (uint32_t w : data) {
		for (int b = 0; b < 4; b++) r256[(w >> (8 * b)) & 255]++, r64[(w >> (8 * b + 2)) & 63]++;
		rw[w % 37] += (unsigned long long)w << 20;
	}
	for (int b = 0; b < BINS; b++) EXPECT(h[b] == r256[b], "bin %d: %u, want %u", b, h[b], r256[b]);
	for (int blk = 0; blk < blocks64; blk++)
		for (int b = 0; b < BIN64; b++) g64[b] += p64[blk * BIN64 + b];
	for (int b = 0; b < BIN64; b++) EXPECT(g64[b] == r64[b], "bin64 %d: %u, want %u", b, g64[b], r64[b]);
	for (int b = 0; b < 37; b++) EXPECT(wh[b] == rw[b], "weighted %d: %llu, want %llu", b, wh[b], rw[b]);
	std::printf("PASS\n");
	return 0;
}
