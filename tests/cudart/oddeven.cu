/*
 * oddeven.cu -- the CUDA samples' sortingNetworks, Batcher's odd-even
 * merge sort: key/value pairs sorted in shared memory by one block per
 * chunk (the comparator network in nested stride loops, ascending and
 * descending chunks), then global merge stages over the whole array
 * (oddEvenMergeGlobal), with uint keys and values that follow them.
 * Checked: keys ascending, values a permutation carried with their keys.
 */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.h"

enum { SHARED = 1024 };

__device__ inline void cmpx(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb, bool dir)
{
	if ((ka > kb) == dir) {
		unsigned t = ka; ka = kb; kb = t;
		t = va; va = vb; vb = t;
	}
}

__global__ void oddEvenShared(unsigned *k, unsigned *v, int dir)
{
	__shared__ unsigned sk[SHARED], sv[SHARED];
	k += blockIdx.x * SHARED, v += blockIdx.x * SHARED;
	for (int i = threadIdx.x; i < SHARED; i += blockDim.x) sk[i] = k[i], sv[i] = v[i];
	for (unsigned size = 2; size <= SHARED; size <<= 1) {
		unsigned stride = size / 2, offset = threadIdx.x & (stride - 1);
		__syncthreads();
		{
			unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
			cmpx(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], dir);
			stride >>= 1;
		}
		for (; stride > 0; stride >>= 1) {
			__syncthreads();
			unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
			if (offset >= stride)
				cmpx(sk[pos - stride], sv[pos - stride], sk[pos], sv[pos], dir);
		}
	}
	__syncthreads();
	for (int i = threadIdx.x; i < SHARED; i += blockDim.x) k[i] = sk[i], v[i] = sv[i];
}

/* one step of the global merge network for size, stride */
__global__ void oddEvenMergeGlobal(unsigned *k, unsigned *v, unsigned size, unsigned stride,
                                   int dir)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned pos = 2 * g - (g & (stride - 1));
	if (stride < size / 2) {
		unsigned offset = g & (size / 2 - 1);
		if (offset >= stride) {
			unsigned ka = k[pos - stride], va = v[pos - stride], kb = k[pos], vb = v[pos];
			cmpx(ka, va, kb, vb, dir);
			k[pos - stride] = ka, v[pos - stride] = va, k[pos] = kb, v[pos] = vb;
		}
	} else {
		unsigned ka = k[pos], va = v[pos], kb = k[pos + stride], vb = v[pos + stride];
		cmpx(ka, va, kb, vb, dir);
		k[pos] = ka, v[pos] = va, k[pos + stride] = kb, v[pos + stride] = vb;
	}
}

int main()
{
	const unsigned n = 8192;
	std::vector<unsigned> k(n), v(n);
	uint32_t x = 2463534242u;
	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		k[i] = x % 5000;                  /* duplicates */
		v[i] = i;
	}
	unsigned *dk, *dv;
	CHECK(cudaMalloc(&dk, n * sizeof(unsigned)));
	CHECK(cudaMalloc(&dv, n * sizeof(unsigned)));
	CHECK(cudaMemcpy(dk, k.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dv, v.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
	const int dir = 1;
	oddEvenShared<<<n / SHARED, SHARED / 2>>>(dk, dv, dir);
	CHECK(cudaGetLastError());
	for (unsigned size = 2 * SHARED; size <= n; size <<= 1)
		for (unsigned stride = size / 2; stride > 0; stride >>= 1)
			oddEvenMergeGlobal<<<n / 2 / 256, 256>>>(dk, dv, size, stride, dir);
	CHECK(cudaGetLastError());
	std::vector<unsigned> gk(n), gv(n);
	CHECK(cudaMemcpy(gk.data(), dk, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(gv.data(), dv, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
	std::vector<unsigned> sk = k;
	std::sort(sk.begin(), sk.end());
	std::vector<char> seen(n, 0);
	for (unsigned i = 0; i < n; i++) {
		EXPECT(gk[i] == sk[i], "key %u: %u, want %u", i, gk[i], sk[i]);
		EXPECT(gv[i] < n && !seen[gv[i]] && k[gv[i]] == gk[i],
		       "value %u: %u does not carry key %u", i, gv[i], gk[i]);
		seen[gv[i]] = 1;
	}
	std::printf("PASS\n");
	return 0;
}
