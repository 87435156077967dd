/*
 * gridsync.cu -- cooperative_groups' grid-wide barrier as nvcc compiles it
 * (the workspace pointer read from %envreg1:2, a release add and an acquire
 * spin): rounds of a grid-stride update whose next round needs the total
 * that block 0 sums after a grid.sync().  Run with `rfsim run --cooperative`
 * (tests/test_cli.py); blocks of 64 threads.
 */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void gridsum(unsigned *data, unsigned *partial, unsigned *sums, int n, int rounds)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ unsigned s[64];
	for (int r = 0; r < rounds; r++) {
		unsigned carry = r ? sums[r - 1] % 7u : 0u, local = 0;
		for (unsigned i = grid.thread_rank(); i < (unsigned)n; i += grid.size()) {
			data[i] = data[i] * 3u + (unsigned)r + carry;
			local += data[i];
		}
		s[threadIdx.x] = local;
		__syncthreads();
		for (int k = 32; k > 0; k /= 2) {
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

/* a grid that can never pass its barrier: block 0 leaves without arriving */
__global__ void gridstuck(int *p)
{
	cg::grid_group grid = cg::this_grid();
	if (blockIdx.x == 0) return;
	grid.sync();
	p[blockIdx.x] = 1;
}
