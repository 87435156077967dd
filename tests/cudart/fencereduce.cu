// threadFenceReduction in the style of the CUDA sample: many CTAs in several
// waves, each a register-heavy per-thread transform and a shared-memory tree
// with barriers inside a loop; the last CTA to finish (atomicInc after
// __threadfence) sums the partial results.  Plus a warp-divergent shuffle
// reduction under partial masks and __syncwarp.
#include <cstdio>
#include "check.h"
#define T 128
#define NL 24
__device__ unsigned done_count;
__device__ __host__ inline unsigned work(unsigned x, int rounds)
{
	unsigned v[NL];
#pragma unroll
	for (int i = 0; i < NL; i++) v[i] = x * (2 * i + 1) + i;
	for (int r = 0; r < rounds; r++) {
#pragma unroll
		for (int i = 0; i < NL; i++) v[i] += (v[(i + 3) % NL] >> 2) ^ (v[(i + 7) % NL] << 1);
	}
	unsigned a = 0;
#pragma unroll
	for (int i = 0; i < NL; i++) a ^= v[i] + (a << 1);
	return a;
}
__global__ void reduce(const unsigned *in, unsigned *partial, unsigned *total, int n, int rounds)
{
	__shared__ unsigned s[T];
	__shared__ bool last;
	unsigned acc = 0;
	for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
		int i = base + threadIdx.x;
		s[threadIdx.x] = i < n ? work(in[i], rounds) : 0;
		__syncthreads();
		for (int st = T / 2; st > 0; st >>= 1) {
			if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
			__syncthreads();
		}
		acc += s[0];
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		partial[blockIdx.x] = acc;
		__threadfence();
		unsigned ticket = atomicInc(&done_count, gridDim.x - 1);
		last = ticket == gridDim.x - 1;
	}
	__syncthreads();
	if (last) {
		unsigned v = 0;
		for (int i = threadIdx.x; i < gridDim.x; i += T) v += ((volatile unsigned *)partial)[i];
		// divergent warps: odd lanes first, then even, each with its own mask
		int lane = threadIdx.x & 31;
		unsigned odd = 0xaaaaaaaau, even = 0x55555555u;
		if (lane & 1) {
			for (int o = 2; o < 32; o <<= 1) v += __shfl_xor_sync(odd, v, o);
		} else {
			for (int o = 2; o < 32; o <<= 1) v += __shfl_xor_sync(even, v, o);
		}
		__syncwarp();
		v += __shfl_xor_sync(0xffffffff, v, 1);
		s[threadIdx.x] = v;
		__syncthreads();
		if (threadIdx.x == 0) {
			unsigned t = 0;
			for (int w = 0; w < T / 32; w++) t += s[w * 32];
			*total = t;
		}
	}
}
int main()
{
	const int G = 40, N = G * T * 2 - 77, rounds = 2;
	static unsigned in[G * T * 2];
	for (int i = 0; i < N; i++) in[i] = i * 2654435761u ^ 0x9e3779b9u;
	unsigned *din, *dp, *dt;
	CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dp, G * 4)); CHECK(cudaMalloc(&dt, 4));
	CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
	reduce<<<G, T>>>(din, dp, dt, N, rounds);
	CHECK(cudaGetLastError());
	unsigned tot, part[G], cnt;
	CHECK(cudaMemcpy(&tot, dt, 4, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(part, dp, sizeof part, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpyFromSymbol(&cnt, done_count, 4));
	unsigned ref = 0;
	for (int b = 0; b < G; b++) {
		unsigned acc = 0;
		for (int base = b * T; base < N; base += G * T) {
			unsigned s = 0;
			for (int t = 0; t < T; t++) s += base + t < N ? work(in[base + t], rounds) : 0;
			acc += s;
		}
		EXPECT(part[b] == acc, "block %d: %u != %u", b, part[b], acc);
		ref += acc;
	}
	EXPECT(cnt == 0, "done_count %u (atomicInc wraps to 0)", cnt);
	EXPECT(tot == ref, "total %u != %u", tot, ref);
	printf("PASS\n");
	return 0;
}
