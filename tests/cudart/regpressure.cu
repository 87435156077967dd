// deep unrolled loop with > 64 live values: spills under a low maxrregcount
#include <cstdio>
#include "check.h"
#define NV 80
__device__ __host__ inline unsigned mix(unsigned a, unsigned b) { return (a ^ (b >> 3)) * 2654435761u + (b << 5); }
__global__ void pressure(const unsigned *in, unsigned *out, int rounds)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned v[NV];
#pragma unroll
	for (int i = 0; i < NV; i++) v[i] = in[(t * 7 + i) & 1023] + i;
	for (int r = 0; r < rounds; r++) {
#pragma unroll
		for (int i = 0; i < NV; i++) v[i] = mix(v[i], v[(i + 1) % NV] + r);
	}
	unsigned acc = 0;
#pragma unroll
	for (int i = 0; i < NV; i++) acc = acc * 31 + v[i];
	out[t] = acc;
}
int main()
{
	const int T = 128, rounds = 3;
	static unsigned in[1024], out[T];
	for (int i = 0; i < 1024; i++) in[i] = i * 2246822519u + 3266489917u;
	unsigned *din, *dout;
	CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
	CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
	pressure<<<T / 64, 64>>>(din, dout, rounds);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
	for (int t = 0; t < T; t++) {
		unsigned v[NV];
		for (int i = 0; i < NV; i++) v[i] = in[(t * 7 + i) & 1023] + i;
		for (int r = 0; r < rounds; r++)
			for (int i = 0; i < NV; i++) v[i] = mix(v[i], v[(i + 1) % NV] + r);
		unsigned acc = 0;
		for (int i = 0; i < NV; i++) acc = acc * 31 + v[i];
		EXPECT(out[t] == acc, "thread %d: %08x != %08x", t, out[t], acc);
	}
	printf("PASS\n");
	return 0;
}
