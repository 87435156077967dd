/*
 * barrier.cu -- libcu++'s block-scope synchronisation objects: a
 * cuda::barrier<thread_scope_block> in shared memory (init, arrive_and_wait,
 * arrive + wait on the token, arrive_and_drop), cuda::memcpy_async of a tile
 * completing on that barrier, and a two-stage cuda::pipeline
 * (producer_acquire/commit, consumer_wait/release) double-buffering tiles;
 * all compile to mbarrier.* PTX.
 */
#include <vector>

#include "barrier_kernels.cuh"
#include "check.h"

int main()
{
	const int ntiles = 12, blocks = 4, threads = 128;
	std::vector<float> hin(ntiles * TILE);
	for (int i = 0; i < ntiles * TILE; i++) hin[i] = (float)((i * 37) % 101) / 4;
	float *din, *dout;
	CHECK(cudaMalloc(&din, hin.size() * sizeof(float)));
	CHECK(cudaMalloc(&dout, blocks * threads * sizeof(float)));
	CHECK(cudaMemcpy(din, hin.data(), hin.size() * sizeof(float), cudaMemcpyHostToDevice));
	tilesum<<<blocks, threads>>>(din, dout, ntiles);
	CHECK(cudaGetLastError());
	std::vector<float> hout(blocks * threads);
	CHECK(cudaMemcpy(hout.data(), dout, hout.size() * sizeof(float), cudaMemcpyDeviceToHost));
	for (int b = 0; b < blocks; b++)
		for (int t = 0; t < threads; t++) {
			float ref = 0;
			for (int k = b; k < ntiles; k += blocks) ref += hin[k * TILE + (t * 7) % TILE];
			EXPECT(hout[b * threads + t] == ref, "tilesum block %d thread %d: %g, want %g",
			       b, t, hout[b * threads + t], ref);
		}

	const int rounds = 5, pt = 64;
	int *dp;
	CHECK(cudaMalloc(&dp, 2 * pt * sizeof(int)));
	phases<<<2, pt>>>(dp, rounds);
	CHECK(cudaGetLastError());
	std::vector<int> hp(2 * pt);
	CHECK(cudaMemcpy(hp.data(), dp, hp.size() * sizeof(int), cudaMemcpyDeviceToHost));
	std::vector<int> cell(pt);
	std::vector<int> acc(pt, 0);
	for (int t = 0; t < pt; t++) cell[t] = t;
	for (int r = 0; r < rounds; r++) {
		std::vector<int> old = cell;
		for (int t = 0; t < pt; t++) {
			if (t % 4 == 3 && r >= 2) continue;
			acc[t] += old[(t + 1) % pt];
			cell[t] += r + 1;
		}
	}
	for (int b = 0; b < 2; b++)
		for (int t = 0; t < pt; t++)
			EXPECT(hp[b * pt + t] == acc[t], "phases block %d thread %d: %d, want %d",
			       b, t, hp[b * pt + t], acc[t]);

	int *di, *dq;
	std::vector<int> hi(ntiles * TILE);
	for (int i = 0; i < ntiles * TILE; i++) hi[i] = i % 1000 - 300;
	CHECK(cudaMalloc(&di, hi.size() * sizeof(int)));
	CHECK(cudaMalloc(&dq, TILE * sizeof(int)));
	CHECK(cudaMemcpy(di, hi.data(), hi.size() * sizeof(int), cudaMemcpyHostToDevice));
	pipe2<<<1, TILE>>>(di, dq, ntiles);
	CHECK(cudaGetLastError());
	std::vector<int> hq(TILE);
	CHECK(cudaMemcpy(hq.data(), dq, TILE * sizeof(int), cudaMemcpyDeviceToHost));
	for (int t = 0; t < TILE; t++) {
		long long ref = 0;
		for (int k = 0; k < ntiles; k++) ref += (long long)hi[k * TILE + t] * (k + 1);
		EXPECT(hq[t] == (int)ref, "pipe2 thread %d: %d, want %lld", t, hq[t], ref);
	}
	std::printf("PASS\n");
	return 0;
}
