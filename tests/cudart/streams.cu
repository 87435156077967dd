/*
 * streams.cu -- several kernels in a pipeline over three streams, with
 * pinned host buffers, asynchronous copies, events between the streams
 * (cudaStreamWaitEvent), host callbacks, one launch through
 * cudaLaunchKernelEx, and event timings: each stage's elapsed time must be
 * positive and the stages' times must add up.
 */
#include <cuda_runtime.h>

#include "check.h"

__global__ void fill(float *v, int n, float base)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		v[i] = base + i;
}

__global__ void scale(float *v, int n, float k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] *= k;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}

static void CUDART_CB on_host(void *arg) { ++*(int *)arg; }

static void CUDART_CB on_done(cudaStream_t, cudaError_t status, void *arg)
{
	*(int *)arg += status == cudaSuccess ? 10 : 1000;
}

int main()
{
	const int n = 4096, threads = 128, grid = (n + threads - 1) / threads;
	cudaStream_t s[3];
	for (auto &st : s) CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	cudaEvent_t start, a_ready, b_ready, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&a_ready));
	CHECK(cudaEventCreateWithFlags(&b_ready, cudaEventDisableTiming));
	CHECK(cudaEventCreate(&stop));
	float *a, *b, *c, *host;
	CHECK(cudaMalloc(&a, n * sizeof(float)));
	CHECK(cudaMalloc(&b, n * sizeof(float)));
	CHECK(cudaMalloc(&c, n * sizeof(float)));
	CHECK(cudaMallocHost(&host, n * sizeof(float)));

	CHECK(cudaEventRecord(start, s[0]));
	fill<<<8, threads, 0, s[0]>>>(a, n, 1.0f);
	scale<<<grid, threads, 0, s[0]>>>(a, n, 3.0f);
	CHECK(cudaEventRecord(a_ready, s[0]));
	for (int i = 0; i < n; i++) host[i] = -2.0f * i;
	CHECK(cudaMemcpyAsync(b, host, n * sizeof(float), cudaMemcpyHostToDevice, s[1]));
	cudaLaunchConfig_t cfg = {};                 /* the extensible launch, with a hint */
	cudaLaunchAttribute hint;
	hint.id = cudaLaunchAttributePriority;
	hint.val.priority = 0;
	cfg.gridDim = grid, cfg.blockDim = threads, cfg.stream = s[1];
	cfg.attrs = &hint, cfg.numAttrs = 1;
	CHECK(cudaLaunchKernelEx(&cfg, scale, b, n, 0.5f));
	CHECK(cudaEventRecord(b_ready, s[1]));
	CHECK(cudaStreamWaitEvent(s[2], a_ready, 0));
	CHECK(cudaStreamWaitEvent(s[2], b_ready, 0));
	add<<<grid, threads, 0, s[2]>>>(a, b, c, n);
	CHECK(cudaEventRecord(stop, s[2]));
	int flag = 0;
	CHECK(cudaLaunchHostFunc(s[2], on_host, &flag));
	CHECK(cudaStreamAddCallback(s[2], on_done, &flag, 0));
	CHECK(cudaMemcpyAsync(host, c, n * sizeof(float), cudaMemcpyDeviceToHost, s[2]));
	CHECK(cudaStreamSynchronize(s[2]));
	CHECK(cudaEventSynchronize(stop));
	EXPECT(flag == 11, "host callbacks ran as %d", flag);
	for (int i = 0; i < n; i++) {
		float want = 3.0f * (1.0f + i) + 0.5f * (-2.0f * i);
		EXPECT(host[i] == want, "c[%d] = %g, want %g", i, host[i], want);
	}
	EXPECT(cudaStreamQuery(s[1]) == cudaSuccess, "stream 1 still busy");
	EXPECT(cudaEventQuery(stop) == cudaSuccess, "stop not reached");

	float t_all = 0, t_first = 0, t_rest = 0;
	CHECK(cudaEventElapsedTime(&t_all, start, stop));
	CHECK(cudaEventElapsedTime(&t_first, start, a_ready));
	CHECK(cudaEventElapsedTime(&t_rest, a_ready, stop));
	std::printf("elapsed %.6f ms = %.6f + %.6f\n", t_all, t_first, t_rest);
	EXPECT(t_first > 0 && t_rest > 0 && t_all > t_first, "timings not increasing");
	float diff = t_all - (t_first + t_rest);
	EXPECT(diff < 1e-4f * t_all && diff > -1e-4f * t_all, "timings do not add up");
	float dummy;
	EXPECT(cudaEventElapsedTime(&dummy, start, b_ready) == cudaErrorInvalidResourceHandle,
	       "an event without timing must not time");
	(void)cudaGetLastError();

	for (auto st : s) CHECK(cudaStreamDestroy(st));
	for (auto ev : {start, a_ready, b_ready, stop}) CHECK(cudaEventDestroy(ev));
	CHECK(cudaFreeHost(host));
	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFree(c));
	std::printf("PASS\n");
	return 0;
}
