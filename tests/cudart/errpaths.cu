/*
 * errpaths.cu -- the mistakes new CUDA programmers make, and the error
 * codes NVIDIA's runtime gives for them (CUDA 13 reference): launch
 * configurations that cannot run (too many threads, a block dimension
 * past its limit, a zero grid, too much shared memory), copies with bad
 * pointers, sizes or kinds, frees of pointers never allocated or freed
 * twice, destroyed streams and events, unknown devices.  None of these is
 * sticky: each is reported once by cudaGetLastError and the program goes
 * on, and a correct launch after them still works.
 */
#include <cuda_runtime.h>

#include <cstring>

#include "check.h"

__global__ void inc(int *v, int n)
{
	int i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
	i = i * blockDim.x * blockDim.y * blockDim.z +
	    (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
	if (i < n) v[i] += 1;
}

__global__ void uses_dyn(int *v)
{
	extern __shared__ int buf[];
	buf[threadIdx.x] = threadIdx.x;
	__syncthreads();
	v[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

static int fails = 0;

static void expect_err(cudaError_t got, cudaError_t want, cudaError_t last, const char *what,
                       int line)
{
	if (got != want || last != want) {
		std::fprintf(stderr, "errpaths.cu:%d: %s gave %s (last error %s), want %s\n", line,
		             what, cudaGetErrorName(got), cudaGetErrorName(last),
		             cudaGetErrorName(want));
		fails++;
	}
	EXPECT(cudaGetLastError() == cudaSuccess, "error not cleared");
	EXPECT(std::strlen(cudaGetErrorString(want)) > 5, "no description");
}

/* the call returned `want`, and cudaGetLastError reports it exactly once */
#define EXPECT_ERR(call, want) do { \
	cudaError_t got_ = (call); \
	expect_err(got_, want, cudaGetLastError(), #call, __LINE__); \
	} while (0)

/* a <<<>>> launch reports through cudaPeekAtLastError, then cudaGetLastError */
#define EXPECT_LAUNCH(want) do { \
	cudaError_t peek_ = cudaPeekAtLastError(); \
	expect_err(peek_, want, cudaGetLastError(), "the launch", __LINE__); \
	} while (0)

int main()
{
	const int n = 256;
	int *d, h[n];
	CHECK(cudaMalloc(&d, n * sizeof(int)));
	CHECK(cudaMemset(d, 0, n * sizeof(int)));

	/* launch configurations */
	inc<<<1, 2048>>>(d, n);
	EXPECT_LAUNCH(cudaErrorInvalidConfiguration);
	inc<<<1, dim3(8, 8, 65)>>>(d, n);            /* blockDim.z at most 64 */
	EXPECT_LAUNCH(cudaErrorInvalidConfiguration);
	inc<<<0, 32>>>(d, n);
	EXPECT_LAUNCH(cudaErrorInvalidConfiguration);
	inc<<<dim3(1, 0, 1), 32>>>(d, n);
	EXPECT_LAUNCH(cudaErrorInvalidConfiguration);
	inc<<<dim3(1, 70000), 32>>>(d, n);           /* gridDim.y at most 65535 */
	EXPECT_LAUNCH(cudaErrorInvalidConfiguration);
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	uses_dyn<<<1, 32, p.sharedMemPerBlockOptin + 4096>>>(d);
	EXPECT_LAUNCH(cudaErrorInvalidValue);
	void *args[] = {&d, (void *)&n};
	EXPECT_ERR(cudaLaunchKernel((const void *)inc, dim3(1), dim3(1025), args, 0, 0),
	           cudaErrorInvalidConfiguration);
	EXPECT_ERR(cudaLaunchKernel((const void *)main, dim3(1), dim3(32), args, 0, 0),
	           cudaErrorInvalidDeviceFunction);

	/* copies */
	EXPECT_ERR(cudaMemcpy(h, (void *)0x1000, sizeof h, cudaMemcpyDeviceToHost),
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemcpy(h, d, 2 * sizeof h, cudaMemcpyDeviceToHost),   /* past the end */
	           cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)7),
	           cudaErrorInvalidMemcpyDirection);
	EXPECT_ERR(cudaMemset(h, 0, sizeof h), cudaErrorInvalidValue);      /* host memory */
	EXPECT_ERR(cudaMemcpy(h, nullptr, sizeof h, cudaMemcpyDeviceToHost),
	           cudaErrorInvalidValue);

	/* allocation and freeing */
	void *huge = nullptr;
	EXPECT_ERR(cudaMalloc(&huge, p.totalGlobalMem + (1ull << 30)), cudaErrorMemoryAllocation);
	EXPECT(huge == nullptr, "failed cudaMalloc set the pointer to %p", huge);
	EXPECT_ERR(cudaFree(h), cudaErrorInvalidValue);                 /* never allocated */
	int *tmp;
	CHECK(cudaMalloc(&tmp, 64));
	CHECK(cudaFree(tmp));
	EXPECT_ERR(cudaFree(tmp), cudaErrorInvalidValue);               /* freed twice */
	EXPECT_ERR(cudaFree(d + 1), cudaErrorInvalidValue);             /* not the start */
	CHECK(cudaFree(nullptr));
	EXPECT_ERR(cudaFreeHost(h), cudaErrorInvalidValue);

	/* streams, events, devices */
	cudaStream_t s;
	cudaEvent_t e0, e1;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaStreamDestroy(s));
	EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
	inc<<<1, 32, 0, s>>>(d, n);                  /* on a destroyed stream */
	EXPECT_LAUNCH(cudaErrorInvalidResourceHandle);
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	CHECK(cudaEventRecord(e0));
	float ms;
	EXPECT_ERR(cudaEventElapsedTime(&ms, e0, e1), cudaErrorInvalidResourceHandle);  /* e1 unrecorded */
	EXPECT_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
	EXPECT_ERR(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
	int v;
	EXPECT_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1), cudaErrorInvalidDevice);
	EXPECT(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
	                   "cudaErrorInvalidConfiguration") == 0, "error name");
	EXPECT(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0, "success string");

	/* nothing above was sticky: a correct 3D launch still runs */
	inc<<<dim3(2, 2, 2), dim3(8, 2, 2)>>>(d, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) EXPECT(h[i] == 1, "h[%d] = %d after the good launch", i, h[i]);
	if (fails) {
		std::printf("FAIL: %d wrong error codes\n", fails);
		return 1;
	}
	std::printf("PASS\n");
	return 0;
}
