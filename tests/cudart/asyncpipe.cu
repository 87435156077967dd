/*
 * asyncpipe.cu -- the overlap pattern of CUDA's samples: pinned host
 * buffers (cudaMallocHost, cudaHostAlloc, cudaHostRegister on a
 * std::vector), the work split into chunks, each chunk's copy in, kernel
 * and copy out issued on its own stream with cudaMemcpyAsync and
 * cudaMemsetAsync, a final stream that waits for all of them through
 * cudaStreamWaitEvent, timing with events (cudaEventElapsedTime), polling
 * with cudaEventQuery/cudaStreamQuery, a kernel working on pinned memory
 * in place (zero-copy), and cudaDeviceReset at the end.
 */
#include <cuda_runtime.h>

#include <vector>

#include "check.h"

__global__ void square_plus(const int *in, int *out, int n, int k)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		out[i] = in[i] * in[i] + k;
}

__global__ void sum_chunks(const int *v, int n, int nchunks, long long *total)
{
	__shared__ long long part[128];
	long long s = 0;
	for (int i = threadIdx.x; i < n * nchunks; i += blockDim.x) s += v[i];
	part[threadIdx.x] = s;
	__syncthreads();
	for (int w = blockDim.x / 2; w > 0; w /= 2) {
		if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
		__syncthreads();
	}
	if (threadIdx.x == 0) *total = part[0];
}

int main()
{
	const int nchunks = 4, chunk = 2048, n = nchunks * chunk;
	int *hin, *hout;
	CHECK(cudaMallocHost((void **)&hin, n * sizeof(int)));
	CHECK(cudaHostAlloc((void **)&hout, n * sizeof(int), cudaHostAllocPortable));
	std::vector<int> extra(n);
	CHECK(cudaHostRegister(extra.data(), n * sizeof(int), cudaHostRegisterDefault));
	for (int i = 0; i < n; i++) hin[i] = i % 1000 - 300, hout[i] = -1;

	cudaPointerAttributes at;
	CHECK(cudaPointerGetAttributes(&at, hin));
	EXPECT(at.type == cudaMemoryTypeHost, "pinned memory type %d", (int)at.type);
	CHECK(cudaPointerGetAttributes(&at, extra.data()));
	EXPECT(at.type == cudaMemoryTypeHost, "registered memory type %d", (int)at.type);
	int stack_var;
	CHECK(cudaPointerGetAttributes(&at, &stack_var));
	EXPECT(at.type == cudaMemoryTypeUnregistered, "pageable memory type %d", (int)at.type);

	int *din, *dout;
	long long *dtotal;
	CHECK(cudaMalloc(&din, n * sizeof(int)));
	CHECK(cudaMalloc(&dout, n * sizeof(int)));
	CHECK(cudaMalloc(&dtotal, sizeof(long long)));
	CHECK(cudaPointerGetAttributes(&at, din + 5));
	EXPECT(at.type == cudaMemoryTypeDevice && at.devicePointer == din + 5, "device attrs");

	cudaStream_t s[nchunks], final_stream;
	cudaEvent_t done[nchunks], start, stop;
	for (int c = 0; c < nchunks; c++) {
		CHECK(cudaStreamCreateWithFlags(&s[c], cudaStreamNonBlocking));
		CHECK(cudaEventCreateWithFlags(&done[c], cudaEventDisableTiming));
	}
	CHECK(cudaStreamCreate(&final_stream));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	for (int c = 0; c < nchunks; c++) {
		int off = c * chunk;
		CHECK(cudaMemsetAsync(dout + off, 0, chunk * sizeof(int), s[c]));
		CHECK(cudaMemcpyAsync(din + off, hin + off, chunk * sizeof(int),
		                      cudaMemcpyHostToDevice, s[c]));
		square_plus<<<8, 128, 0, s[c]>>>(din + off, dout + off, chunk, c);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpyAsync(hout + off, dout + off, chunk * sizeof(int),
		                      cudaMemcpyDeviceToHost, s[c]));
		CHECK(cudaMemcpyAsync(extra.data() + off, dout + off, chunk * sizeof(int),
		                      cudaMemcpyDefault, s[c]));
		CHECK(cudaEventRecord(done[c], s[c]));
		CHECK(cudaStreamWaitEvent(final_stream, done[c], 0));
	}
	sum_chunks<<<1, 128, 0, final_stream>>>(dout, chunk, nchunks, dtotal);
	CHECK(cudaGetLastError());
	long long total = 0;
	CHECK(cudaMemcpyAsync(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost, final_stream));
	CHECK(cudaEventRecord(stop, final_stream));
	/* poll the way programs overlap host work: NotReady until done, then Success */
	int polls = 0;
	cudaError_t q;
	while ((q = cudaEventQuery(stop)) == cudaErrorNotReady) polls++;
	EXPECT(q == cudaSuccess, "cudaEventQuery gave %s", cudaGetErrorName(q));
	EXPECT(cudaGetLastError() == cudaSuccess, "polling left an error");
	for (int c = 0; c < nchunks; c++) {
		while ((q = cudaStreamQuery(s[c])) == cudaErrorNotReady) polls++;
		EXPECT(q == cudaSuccess, "cudaStreamQuery gave %s", cudaGetErrorName(q));
	}
	CHECK(cudaStreamSynchronize(final_stream));
	CHECK(cudaEventSynchronize(stop));
	float ms = -1.0f;
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	EXPECT(ms > 0.0f && ms < 1000.0f, "elapsed %g ms", ms);
	std::printf("%d chunks on %d streams: %.4f ms simulated\n", nchunks, nchunks, ms);

	long long want_total = 0;
	for (int c = 0; c < nchunks; c++)
		for (int i = 0; i < chunk; i++) {
			int j = c * chunk + i, want = hin[j] * hin[j] + c;
			EXPECT(hout[j] == want, "hout[%d] = %d, want %d", j, hout[j], want);
			EXPECT(extra[j] == want, "extra[%d] = %d, want %d", j, extra[j], want);
			want_total += want;
		}
	EXPECT(total == want_total, "total %lld, want %lld", total, want_total);

	/* zero-copy: under unified addressing a kernel may use pinned memory directly,
	   at the address cudaPointerGetAttributes gives for the device */
	CHECK(cudaPointerGetAttributes(&at, hout));
	if (at.devicePointer) {
		square_plus<<<4, 128>>>((const int *)at.devicePointer, (int *)at.devicePointer, chunk,
		                        5);
		CHECK(cudaDeviceSynchronize());
		for (int i = 0; i < chunk; i++) {
			int before = hin[i] * hin[i], want = before * before + 5;
			EXPECT(hout[i] == want, "zero-copy hout[%d] = %d, want %d", i, hout[i], want);
		}
		std::printf("zero-copy kernel on pinned memory: ok\n");
	}

	/* a timing with a disable-timing event is an error, not a crash */
	EXPECT(cudaEventElapsedTime(&ms, start, done[0]) == cudaErrorInvalidResourceHandle,
	       "elapsed time of a DisableTiming event");
	(void)cudaGetLastError();

	for (int c = 0; c < nchunks; c++) {
		CHECK(cudaStreamDestroy(s[c]));
		CHECK(cudaEventDestroy(done[c]));
	}
	CHECK(cudaStreamDestroy(final_stream));
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	CHECK(cudaHostUnregister(extra.data()));
	CHECK(cudaFreeHost(hin));
	CHECK(cudaFreeHost(hout));
	CHECK(cudaFree(din));
	CHECK(cudaFree(dout));
	CHECK(cudaFree(dtotal));
	CHECK(cudaDeviceReset());
	std::printf("PASS\n");
	return 0;
}
