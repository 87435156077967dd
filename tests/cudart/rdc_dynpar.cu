/*
 * rdc_dynpar.cu -- dynamic parallelism (a kernel that launches a kernel),
 * which needs nvcc -rdc=true: the parent's <<<>>> becomes calls of
 * __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2, which rfsim
 * provides (src/func/cdp.c).  The child runs after the parent; the program
 * checks what it wrote.
 */
#include <cstdio>

#include "check.h"

__global__ void child(int *out, int base)
{
	out[threadIdx.x] = base + (int)threadIdx.x;
}

__global__ void parent(int *out)
{
	if (threadIdx.x == 0) child<<<1, 32>>>(out, 100);
}

int main()
{
	int *d, h[32];
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemset(d, 0, sizeof h));
	parent<<<1, 1>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 32; i++) EXPECT(h[i] == 100 + i, "out[%d] = %d", i, h[i]);
	std::printf("PASS\n");
	return 0;
}
