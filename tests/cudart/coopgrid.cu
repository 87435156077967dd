/*
 * coopgrid.cu -- cooperative launches and grid-wide synchronisation
 * (cooperative_groups::this_grid().sync()), checked against the CPU:
 *  - a multi-phase kernel over several blocks per SM: each round every
 *    thread updates its grid-stride elements using the previous round's
 *    total, blocks write partial sums, grid.sync(), block 0 adds the
 *    partials, grid.sync() -- so a missing or broken grid barrier gives
 *    wrong totals (or a hang);
 *  - the same through cudaLaunchKernelEx with cudaLaunchAttributeCooperative;
 *  - a grid larger than the device can hold at once is refused with
 *    cudaErrorCooperativeLaunchTooLarge, which is not sticky;
 *  - cudaDevAttrCooperativeLaunch reads 1;
 *  - a genuine grid deadlock (block 0 leaves, the others wait at
 *    grid.sync() for ever) is reported and stopped, cudaErrorLaunchTimeout,
 *    and grid.sync() in an ordinary launch traps (cudaErrorLaunchFailure),
 *    as on NVIDIA's GPUs; cudaDeviceReset clears both.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

enum { THREADS = 128, ROUNDS = 6 };

__global__ void multiphase(unsigned *data, unsigned *partial, unsigned *sums, int n)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ unsigned s[THREADS];
	for (int r = 0; r < ROUNDS; r++) {
		unsigned carry = r ? sums[r - 1] % 7u : 0u, local = 0;
		for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
		     i += grid.size()) {
			data[i] = data[i] * 3u + (unsigned)r + carry;
			local += data[i];
		}
		s[threadIdx.x] = local;
		__syncthreads();
		for (int k = THREADS / 2; k > 0; k /= 2) {
			if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
			__syncthreads();
		}
		if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
		grid.sync();
		if (blockIdx.x == 0 && threadIdx.x == 0) {
			unsigned t = 0;
			for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
			sums[r] = t;
		}
		grid.sync();
	}
}

__global__ void stuck(int *p)
{
	cg::grid_group grid = cg::this_grid();
	if (blockIdx.x == 0) return;                 /* never arrives: the others wait */
	grid.sync();
	p[blockIdx.x] = 1;
}

static void reference(unsigned *data, int n, unsigned *sums)
{
	for (int r = 0; r < ROUNDS; r++) {
		unsigned carry = r ? sums[r - 1] % 7u : 0u, t = 0;
		for (int i = 0; i < n; i++) {
			data[i] = data[i] * 3u + (unsigned)r + carry;
			t += data[i];
		}
		sums[r] = t;
	}
}

static void run_and_check(int blocks, int n, bool through_ex)
{
	unsigned *data, *partial, *sums, *h = new unsigned[n], *ref = new unsigned[n];
	CHECK(cudaMalloc(&data, n * sizeof(unsigned)));
	CHECK(cudaMalloc(&partial, blocks * sizeof(unsigned)));
	CHECK(cudaMalloc(&sums, ROUNDS * sizeof(unsigned)));
	for (int i = 0; i < n; i++) h[i] = ref[i] = (unsigned)i * 2654435761u;
	CHECK(cudaMemcpy(data, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
	if (through_ex) {
		cudaLaunchConfig_t cfg = {};
		cudaLaunchAttribute coop;
		coop.id = cudaLaunchAttributeCooperative;
		coop.val.cooperative = 1;
		cfg.gridDim = blocks, cfg.blockDim = THREADS, cfg.attrs = &coop, cfg.numAttrs = 1;
		CHECK(cudaLaunchKernelEx(&cfg, multiphase, data, partial, sums, n));
	} else {
		void *args[] = {&data, &partial, &sums, &n};
		CHECK(cudaLaunchCooperativeKernel((void *)multiphase, blocks, THREADS, args, 0, 0));
	}
	CHECK(cudaDeviceSynchronize());
	unsigned got[ROUNDS], want[ROUNDS];
	CHECK(cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(h, data, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
	reference(ref, n, want);
	for (int r = 0; r < ROUNDS; r++)
		EXPECT(got[r] == want[r], "%d blocks: round %d total %u, want %u", blocks, r, got[r],
		       want[r]);
	for (int i = 0; i < n; i++)
		EXPECT(h[i] == ref[i], "%d blocks: data[%d] = %u, want %u", blocks, i, h[i], ref[i]);
	CHECK(cudaFree(data));
	CHECK(cudaFree(partial));
	CHECK(cudaFree(sums));
	delete[] h;
	delete[] ref;
}

int main()
{
	int coop = 0, sms = 0, per_sm = 0;
	CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
	EXPECT(coop == 1, "cudaDevAttrCooperativeLaunch = %d", coop);
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, multiphase, THREADS, 0));
	EXPECT(per_sm >= 2, "only %d blocks of %d threads per SM", per_sm, THREADS);

	/* several blocks per SM, all waiting for each other at every round */
	int blocks = (per_sm < 3 ? per_sm : 3) * sms;
	run_and_check(blocks, 20000, false);
	run_and_check(sms, 3000, true);

	/* one block more than fits at once */
	unsigned *d;
	CHECK(cudaMalloc(&d, 64));
	int n = 16;
	void *args[] = {&d, &d, &d, &n};
	cudaError_t e = cudaLaunchCooperativeKernel((void *)multiphase, per_sm * sms + 1, THREADS,
	                                            args, 0, 0);
	EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "oversized grid gave %s",
	       cudaGetErrorName(e));
	EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge, "error not recorded");
	EXPECT(cudaGetLastError() == cudaSuccess, "oversized launch error is sticky");
	CHECK(cudaFree(d));
	run_and_check(per_sm * sms, 5000, false);       /* exactly full still runs */

	int *p;
	CHECK(cudaMalloc(&p, 64 * sizeof(int)));
	void *pargs[] = {&p};
	e = cudaLaunchCooperativeKernel((void *)stuck, 4, 64, pargs, 0, 0);
	EXPECT(e == cudaErrorLaunchTimeout, "grid deadlock gave %s", cudaGetErrorName(e));
	CHECK(cudaDeviceReset());
	CHECK(cudaMalloc(&p, 64 * sizeof(int)));
	stuck<<<4, 64>>>(p);
	e = cudaDeviceSynchronize();
	EXPECT(e == cudaErrorLaunchFailure, "grid.sync() outside a cooperative launch gave %s",
	       cudaGetErrorName(e));
	CHECK(cudaDeviceReset());
	std::printf("PASS\n");
	return 0;
}
