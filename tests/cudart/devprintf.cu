/*
 * devprintf.cu -- device-side printf and assert through rfsim's builtins:
 * every thread of a small kernel prints a line; a second kernel's assert
 * fails in one thread, which the runtime must report as cudaErrorAssert.
 */
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

__global__ void hello(int base)
{
	printf("hello from block %d thread %d: %d %.2f\n", blockIdx.x, threadIdx.x,
	       base + (int)threadIdx.x, 0.5 * threadIdx.x);
}

__global__ void check_small(const int *x)
{
	assert(x[threadIdx.x] < 3);
}

int main()
{
	hello<<<2, 2>>>(40);
	CHECK(cudaDeviceSynchronize());
	int h[4] = {0, 1, 2, 3}, *d;
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
	check_small<<<1, 4>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	EXPECT(e == cudaErrorAssert, "assert gave %s", cudaGetErrorName(e));
	std::printf("PASS\n");
	return 0;
}
