/*
 * managed.cu -- memory that host and kernels share at one address:
 * cudaMallocManaged, a __managed__ variable, and zero-copy pinned memory
 * (cudaHostAlloc with cudaHostAllocMapped), each written by the host, used
 * by a kernel, and read back by the host without a copy.
 */
#include <cuda_runtime.h>

#include "check.h"

__managed__ int hits = 5;

__global__ void bump(int *v, int n, int *mapped)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	v[i] = v[i] * 2 + 1;
	atomicAdd(&hits, 1);
	mapped[i] = -i;
}

int main()
{
	const int n = 1000;
	int *v, *mapped, *dmapped;
	CHECK(cudaMallocManaged(&v, n * sizeof(int)));
	for (int i = 0; i < n; i++) v[i] = i;
	CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
	CHECK(cudaHostGetDevicePointer(&dmapped, mapped, 0));
	cudaMemLocation here = {cudaMemLocationTypeDevice, 0};
	CHECK(cudaMemPrefetchAsync(v, n * sizeof(int), here, 0, 0));
	CHECK(cudaStreamAttachMemAsync(0, v, 0, cudaMemAttachGlobal));
	EXPECT(hits == 5, "hits starts at %d", hits);
	bump<<<(n + 127) / 128, 128>>>(v, n, dmapped);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < n; i++) {
		EXPECT(v[i] == 2 * i + 1, "v[%d] = %d", i, v[i]);
		EXPECT(mapped[i] == -i, "mapped[%d] = %d", i, mapped[i]);
	}
	EXPECT(hits == 5 + n, "hits = %d", hits);
	hits = 0;                                    /* host writes reach the next kernel */
	v[0] = 100;
	bump<<<1, 1>>>(v, 1, dmapped);
	CHECK(cudaDeviceSynchronize());
	EXPECT(v[0] == 201 && hits == 1, "v[0] = %d, hits = %d", v[0], hits);
	cudaPointerAttributes pa;
	CHECK(cudaPointerGetAttributes(&pa, v));
	EXPECT(pa.type == cudaMemoryTypeManaged, "managed type %d", (int)pa.type);
	int first;
	CHECK(cudaMemcpy(&first, v, sizeof first, cudaMemcpyDefault));
	EXPECT(first == 201, "copy from managed memory gave %d", first);
	CHECK(cudaFree(v));
	CHECK(cudaFreeHost(mapped));
	std::printf("PASS\n");
	return 0;
}
