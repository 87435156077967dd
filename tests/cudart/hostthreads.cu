/*
 * hostthreads.cu -- the runtime called from several host threads at once:
 * each thread makes its own streams, events and buffers, launches kernels and
 * copies results back, round after round, and checks them; the last error is
 * each thread's own (one thread's failed cudaMalloc is not another's error).
 * Before the runtime had its lock, such a run corrupted the heap or mixed up
 * buffers in most tries.
 */
#include <atomic>
#include <thread>
#include <vector>

#include "check.h"

__global__ void add(float *x, int n, float v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] += v;
}

int main()
{
	const int n = 4096, threads = 8, rounds = 12;
	std::vector<std::thread> th;
	std::atomic<int> bad{0}, failed{0}, arrived{0};
	for (int t = 0; t < threads; t++)
		th.emplace_back([&, t] {
			std::vector<float> h(n);
			for (int r = 0; r < rounds; r++) {
				float *d;
				cudaStream_t s;
				cudaEvent_t e;
				if (cudaStreamCreate(&s) || cudaEventCreate(&e) || cudaMalloc(&d, n * 4)) {
					bad++;
					return;
				}
				cudaMemsetAsync(d, 0, n * 4, s);
				add<<<n / 128, 128, 0, s>>>(d, n, (float)(t + r));
				add<<<n / 128, 128, 0, s>>>(d, n, 1.0f);
				cudaEventRecord(e, s);
				cudaMemcpyAsync(h.data(), d, n * 4, cudaMemcpyDeviceToHost, s);
				if (cudaStreamSynchronize(s) || cudaEventSynchronize(e)) bad++;
				for (int i = 0; i < n; i++)
					if (h[i] != (float)(t + r + 1)) {
						bad++;
						break;
					}
				if (cudaFree(d) || cudaEventDestroy(e) || cudaStreamDestroy(s)) bad++;
			}
			/* thread 0 fails an allocation; every thread then reads its own last error */
			if (t == 0) {
				void *p;
				if (cudaMalloc(&p, (size_t)1 << 50) != cudaErrorMemoryAllocation) bad++;
				failed = 1;
			}
			arrived++;
			while (arrived.load() < threads || !failed.load()) std::this_thread::yield();
			cudaError_t last = cudaGetLastError();
			if (last != (t == 0 ? cudaErrorMemoryAllocation : cudaSuccess)) bad++;
		});
	for (auto &x : th) x.join();
	EXPECT(bad.load() == 0, "%d wrong results or errors across %d threads", bad.load(), threads);
	EXPECT(cudaGetLastError() == cudaSuccess, "the main thread inherited an error");
	printf("PASS\n");
	return 0;
}
