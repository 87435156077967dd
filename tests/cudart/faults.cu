/*
 * faults.cu MODE -- kernels that fail on the device, and what the host
 * sees, as on a GPU: the fault is reported by the next call that waits
 * for the kernel, it is sticky (every call returns it, cudaGetLastError
 * does not clear it) until cudaDeviceReset, after which the program runs
 * normally again.  MODE:
 *   oob      a kernel reads far past the end of its buffer
 *   oobwrite a 2D kernel writes one row past a pitched buffer, unchecked,
 *            so the error surfaces at the next cudaMemcpy
 *   assert   a device-side assert fails in one thread
 *   spin     a kernel waits forever for a flag nobody sets (the watchdog
 *            must stop it)
 *   count    a kernel counts forever in a loop that writes memory
 *            (stopped by RFSIM_SET=sim.max_cycles=... or the instruction cap)
 * tests/test_cudart.py checks rfsim's report on stderr for each.
 */
#include <cuda_runtime.h>

#include <cassert>
#include <cstring>

#include "check.h"

__global__ void gather(const float *in, float *out, int n, int stride)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) out[i] = in[(long long)i * stride];     /* stride > 1 overruns in[] */
}

__global__ void fill_rows(float *m, size_t pitch, int width, int height)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < width && y <= height)                       /* off by one: y == height */
		((float *)((char *)m + y * pitch))[x] = 1.0f;
}

__global__ void checked(const int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) assert(v[i] >= 0);
}

__global__ void spin(volatile int *flag)
{
	while (*flag == 0) {
	}
}

__global__ void count(int *out)
{
	for (int i = 0;; i++) ((volatile int *)out)[threadIdx.x] = i;
}

__global__ void twice(int *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] *= 2;
}

/* the fault `want` is sticky until cudaDeviceReset; then work runs again */
static void sticky_then_reset(cudaError_t want)
{
	int *p = nullptr;
	EXPECT(cudaMalloc(&p, 16) == want, "cudaMalloc after the fault succeeded");
	EXPECT(cudaGetLastError() == want, "cudaGetLastError lost the fault");
	EXPECT(cudaGetLastError() == want, "cudaGetLastError cleared a sticky fault");
	EXPECT(cudaDeviceSynchronize() == want, "cudaDeviceSynchronize after the fault");
	CHECK(cudaDeviceReset());
	int h[64], *d;
	for (int i = 0; i < 64; i++) h[i] = i;
	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
	twice<<<1, 64>>>(d, 64);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 64; i++) EXPECT(h[i] == 2 * i, "after reset h[%d] = %d", i, h[i]);
	CHECK(cudaFree(d));
}

static void expect_fault(cudaError_t got, cudaError_t want, const char *where)
{
	EXPECT(got == want, "%s gave %s (%s), want %s", where, cudaGetErrorName(got),
	       cudaGetErrorString(got), cudaGetErrorName(want));
	std::printf("%s: %s\n", where, cudaGetErrorString(got));
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const int n = 1000;
	if (!std::strcmp(mode, "oob")) {
		float *in, *out;
		CHECK(cudaMalloc(&in, n * sizeof(float)));
		CHECK(cudaMalloc(&out, n * sizeof(float)));
		gather<<<(n + 255) / 256, 256>>>(in, out, n, 4096);
		expect_fault(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "cudaDeviceSynchronize");
		sticky_then_reset(cudaErrorIllegalAddress);
	} else if (!std::strcmp(mode, "oobwrite")) {
		float *m, h[4];
		size_t pitch;
		const int w = 50, hgt = 16;
		CHECK(cudaMallocPitch((void **)&m, &pitch, w * sizeof(float), hgt));
		fill_rows<<<dim3(4, 3), dim3(16, 8)>>>(m, pitch, w, hgt);
		expect_fault(cudaMemcpy(h, m, sizeof h, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress,
		             "cudaMemcpy");
		sticky_then_reset(cudaErrorIllegalAddress);
	} else if (!std::strcmp(mode, "assert")) {
		int h[n], *d;
		for (int i = 0; i < n; i++) h[i] = i == 777 ? -1 : i;
		CHECK(cudaMalloc(&d, sizeof h));
		CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
		checked<<<(n + 127) / 128, 128>>>(d, n);
		expect_fault(cudaDeviceSynchronize(), cudaErrorAssert, "cudaDeviceSynchronize");
		sticky_then_reset(cudaErrorAssert);
	} else if (!std::strcmp(mode, "spin") || !std::strcmp(mode, "count")) {
		int *d;
		CHECK(cudaMalloc(&d, 64 * sizeof(int)));
		CHECK(cudaMemset(d, 0, 64 * sizeof(int)));
		if (mode[0] == 's') spin<<<2, 64>>>(d);
		else count<<<1, 32>>>(d);
		cudaError_t e = cudaDeviceSynchronize();
		EXPECT(e != cudaSuccess, "an endless kernel finished");
		expect_fault(e, cudaErrorLaunchTimeout, "cudaDeviceSynchronize");
		sticky_then_reset(e);
	} else {
		std::fprintf(stderr, "usage: faults oob|oobwrite|assert|spin|count\n");
		return 2;
	}
	std::printf("PASS\n");
	return 0;
}
