/*
 * vecadd.cu -- the plainest CUDA program: c = a + b over a vector, checked
 * on the host.  Built three ways by the tests (nvcc's default zstd-compressed
 * PTX, --no-compress, -compress-mode=speed for LZ4) and once with machine
 * code only (code=sm_90), which rfsim must refuse with a rebuild hint.
 * Also asks the device and the kernel the usual questions.
 */
#include <cuda_runtime.h>

#include "check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}

int main()
{
	const int n = 10000;
	const size_t bytes = n * sizeof(float);
	int count = 0;
	CHECK(cudaGetDeviceCount(&count));
	EXPECT(count == 1, "%d devices", count);
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	std::printf("device: %s, %d SMs, cc %d.%d, warp %d, %zu MiB\n", prop.name,
	            prop.multiProcessorCount, prop.major, prop.minor, prop.warpSize,
	            prop.totalGlobalMem >> 20);
	EXPECT(prop.warpSize == 32 && prop.multiProcessorCount > 0, "bad properties");
	EXPECT(prop.maxThreadsPerBlock >= 256 && prop.sharedMemPerBlock > 0, "bad limits");
	int sms = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	EXPECT(sms == prop.multiProcessorCount, "%d vs %d SMs", sms, prop.multiProcessorCount);

	float *a = (float *)std::malloc(bytes), *b = (float *)std::malloc(bytes);
	float *c = (float *)std::malloc(bytes);
	for (int i = 0; i < n; i++) a[i] = i * 0.5f, b[i] = 1000.0f - i;
	float *da, *db, *dc;
	CHECK(cudaMalloc(&da, bytes));
	CHECK(cudaMalloc(&db, bytes));
	CHECK(cudaMalloc(&dc, bytes));
	CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyDefault));
	CHECK(cudaMemset(dc, 0xff, bytes));

	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, vecadd));
	EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock >= 256, "regs %d, max threads %d",
	       fa.numRegs, fa.maxThreadsPerBlock);
#ifdef EXPECT_PTX      /* the build's virtual architecture (test_cudart.py) */
	EXPECT(fa.ptxVersion == EXPECT_PTX && fa.binaryVersion == 80, "ptxVersion %d, binaryVersion %d",
	       fa.ptxVersion, fa.binaryVersion);
#endif
	int minGrid = 0, block = 0;
	CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, vecadd, 0, 0));
	EXPECT(block > 0 && block <= 1024 && minGrid > 0, "block %d, grid %d", block, minGrid);

	block = 256;
	vecadd<<<(n + block - 1) / block, block>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		EXPECT(c[i] == a[i] + b[i], "c[%d] = %g, want %g", i, c[i], a[i] + b[i]);

	cudaPointerAttributes pa;
	CHECK(cudaPointerGetAttributes(&pa, dc));
	EXPECT(pa.type == cudaMemoryTypeDevice && pa.devicePointer == dc, "device pointer");
	CHECK(cudaPointerGetAttributes(&pa, c));
	EXPECT(pa.type == cudaMemoryTypeUnregistered, "host pointer type %d", (int)pa.type);
	size_t freeb = 0, total = 0;
	CHECK(cudaMemGetInfo(&freeb, &total));
	EXPECT(total == prop.totalGlobalMem && freeb + 3 * bytes <= total, "mem info");

	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	std::free(a), std::free(b), std::free(c);
	CHECK(cudaDeviceReset());
	std::printf("PASS\n");
	return 0;
}
