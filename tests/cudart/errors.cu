/*
 * errors.cu -- the runtime's error behaviour, as on a GPU: an unsupported
 * call returns cudaErrorNotSupported; a bad launch configuration is
 * reported by cudaGetLastError once and then cleared; a bad copy returns
 * cudaErrorInvalidValue; a kernel that writes out of bounds poisons the
 * context (every call returns cudaErrorIllegalAddress) until
 * cudaDeviceReset, after which the program carries on normally.
 */
#include <cuda_runtime.h>

#include "check.h"

__global__ void write_at(int *p, long long offset) { p[offset] = 1; }

__global__ void twice(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) p[i] *= 2;
}

int main()
{
	int *d;
	CHECK(cudaMalloc(&d, 64 * sizeof(int)));
	EXPECT(cudaDeviceEnablePeerAccess(1, 0) == cudaErrorNotSupported, "peers are not simulated");
	EXPECT(cudaGetLastError() == cudaErrorNotSupported, "not recorded");
	EXPECT(cudaGetLastError() == cudaSuccess, "not cleared");

	twice<<<1, 4096>>>(d, 64);
	EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration, "4096 threads launched");
	EXPECT(cudaPeekAtLastError() == cudaSuccess, "configuration error is sticky");
	int h[64];
	EXPECT(cudaMemcpy(h, (void *)0x1234, sizeof h, cudaMemcpyDeviceToHost) ==
	       cudaErrorInvalidValue, "copy from a wild pointer");
	(void)cudaGetLastError();

	write_at<<<1, 1>>>(d, 1 << 20);
	cudaError_t e = cudaDeviceSynchronize();
	EXPECT(e == cudaErrorIllegalAddress, "out-of-bounds write gave %s", cudaGetErrorName(e));
	int *d2;
	EXPECT(cudaMalloc(&d2, 16) == cudaErrorIllegalAddress, "fault is not sticky");
	EXPECT(cudaGetLastError() == cudaErrorIllegalAddress, "sticky error cleared");

	CHECK(cudaDeviceReset());
	CHECK(cudaMalloc(&d, 64 * sizeof(int)));
	for (int i = 0; i < 64; i++) h[i] = i;
	CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
	twice<<<2, 32>>>(d, 64);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 64; i++) EXPECT(h[i] == 2 * i, "after reset h[%d] = %d", i, h[i]);
	std::printf("PASS\n");
	return 0;
}
