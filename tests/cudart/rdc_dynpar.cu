/*
 * rdc_dynpar.cu -- dynamic parallelism (a kernel that launches a kernel),
 * which needs nvcc -rdc=true and the device runtime (libcudadevrt).  rfsim
 * refuses it by name when it links the program's PTX: the parent's launch
 * fails with cudaErrorInvalidPtx, and the program says "refused".  On a
 * GPU the child runs and the program checks what it wrote.
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
	parent<<<1, 1>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaSuccess) e = cudaGetLastError();
	if (e == cudaErrorInvalidPtx) {
		std::printf("refused: %s\nPASS\n", cudaGetErrorName(e));
		return 0;
	}
	CHECK(e);
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 32; i++) EXPECT(h[i] == 100 + i, "out[%d] = %d", i, h[i]);
	std::printf("PASS\n");
	return 0;
}
