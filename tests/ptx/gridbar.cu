/*
 * gridbar.cu -- PTX corpus: a software barrier across the grid, as Parboil's
 * BFS multi-block kernel has: thread 0 of each block counts the block in with
 * an atomic and spins until every block has arrived, `rounds` times.  It
 * relies on the whole grid being resident; functional mode, which ran the
 * blocks one after another, reported it as a livelock (issue 20, item 12).
 * tests/test_semantics.py runs it.
 */
extern "C" __global__ void gbar(volatile unsigned *count, unsigned *out, unsigned rounds)
{
	for (unsigned r = 0; r < rounds; r++) {
		if (threadIdx.x == 0) {
			atomicAdd((unsigned *)count, 1u);
			while (count[0] < (r + 1) * gridDim.x) {}
		}
		__syncthreads();
		if (threadIdx.x == 0) out[r * gridDim.x + blockIdx.x] = count[0];
		__syncthreads();
	}
}
