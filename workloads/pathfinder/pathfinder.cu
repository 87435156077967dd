/*
 * pathfinder.cu -- dynamic programming over the rows of a grid: the
 * cheapest path from the top row to each cell of the bottom row, moving
 * one row down and at most one column sideways per step,
 *
 *     cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1]),
 *
 * advanced h rows per launch as a "pyramid" (the ghost-zone scheme of
 * Rodinia's pathfinder, written afresh).  A block of B threads loads B
 * consecutive costs of the previous row into shared memory and runs h
 * rows in place; each row the band of cells whose inputs are all known
 * shrinks by one cell per side, so after h rows the middle B - 2h cells
 * are final and the block writes only those.  Neighbouring blocks overlap
 * by 2h cells and recompute them: redundant work traded for one launch per
 * h rows instead of one per row.  A barrier separates each row's reads
 * from its writes and the next row's reads, so bar.sync runs inside the
 * row loop; the band test and the grid's edges make warps diverge.
 *
 * Dynamic shared memory holds two rows of B ints (previous and current);
 * the host passes 2*B*4 bytes.  The row loop is kept rolled (#pragma
 * unroll 1), which keeps the kernel near 20 registers, so its occupancy
 * is limited by threads even on a Fermi-like SM; rows * cols < 2^31.
 */

extern "C" __global__ void pf_rows(int cols, int r0, int h, const int *__restrict__ wall,
                                   const int *__restrict__ src, int *__restrict__ dst)
{
	extern __shared__ int s_rows[];  /* prev[0..B) then cur[0..B) */
	int *prev = s_rows, *cur = s_rows + blockDim.x;
	int tx = threadIdx.x, last = blockDim.x - 1;
	int c = blockIdx.x * (blockDim.x - 2 * h) - h + tx;  /* this thread's column */
	bool inside = c >= 0 && c < cols;

	if (inside)
		prev[tx] = src[c];
	__syncthreads();
#pragma unroll 1
	for (int k = 1; k <= h; k++) {
		bool live = inside && tx >= k && tx <= last - k;  /* its inputs are in s_rows */
		if (live) {
			int best = prev[tx];
			if (c > 0 && prev[tx - 1] < best)
				best = prev[tx - 1];
			if (c < cols - 1 && prev[tx + 1] < best)
				best = prev[tx + 1];
			cur[tx] = best + wall[(r0 + k) * cols + c];
		}
		__syncthreads();
		if (live)
			prev[tx] = cur[tx];
		__syncthreads();
	}
	if (inside && tx >= h && tx <= last - h)
		dst[c] = prev[tx];
}
