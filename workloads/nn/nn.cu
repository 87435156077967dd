/*
 * nn.cu -- the k nearest neighbours of a query point among n records:
 * distances, then a two-pass selection of the k smallest.
 *
 * nn_dist computes each record's Euclidean distance to the query and
 * packs it with the record's index into one 64-bit key, distance bits
 * above, index below.  A non-negative float orders like its bit pattern,
 * so comparing keys as unsigned 64-bit integers orders records by
 * distance, then by index: keys are unique and the k nearest are exactly
 * the k smallest keys, a well-defined set even with equal distances.
 *
 * nn_select finds the k smallest keys of one chunk per block, in k
 * rounds.  In each round every thread scans its share of the chunk for
 * the smallest key above the previous round's winner (a data-dependent
 * filter), the warp takes the minimum with 64-bit __shfl_xor_sync (two
 * 32-bit shuffles each), and the warps' minima meet in dynamic shared
 * memory between two barriers, so bar.sync sits inside the round loop.
 * The host runs it twice: over chunks of the keys, then with a single
 * block over the blocks' candidates, as a reduction's second pass.
 * A chunk with fewer than k keys pads its output with ~0 (no record).
 */

#define NN_NONE 0xffffffffffffffffull

/* keys[i] = (distance of record i to (qlat, qlng)) << 32 | i */
extern "C" __global__ void nn_dist(int n, float qlat, float qlng,
                                   const float *__restrict__ lat, const float *__restrict__ lng,
                                   unsigned long long *__restrict__ keys)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	float dy = lat[i] - qlat, dx = lng[i] - qlng;
	float d = sqrtf(dx * dx + dy * dy);
	keys[i] = (unsigned long long)__float_as_uint(d) << 32 | (unsigned)i;
}

__device__ __forceinline__ unsigned long long min64(unsigned long long a, unsigned long long b)
{
	return a < b ? a : b;
}

/* out[blockIdx.x*k + r] = the r-th smallest of in[blockIdx.x*chunk ..][0..chunk) within n */
extern "C" __global__ void nn_select(int n, int chunk, int k,
                                     const unsigned long long *__restrict__ in,
                                     unsigned long long *__restrict__ out)
{
	extern __shared__ unsigned long long s_warp_min[];  /* one per warp */
	int nwarps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int begin = blockIdx.x * chunk, end = min(begin + chunk, n);
	unsigned long long lo = 0;  /* keys below lo were taken in earlier rounds */

	for (int r = 0; r < k; r++) {
		unsigned long long best = NN_NONE;
#pragma unroll 1
		for (int i = begin + threadIdx.x; i < end; i += blockDim.x) {
			unsigned long long key = in[i];
			if (key >= lo && key < best)
				best = key;
		}
		for (int m = 16; m > 0; m /= 2)
			best = min64(best, __shfl_xor_sync(0xffffffffu, best, m));
		if (lane == 0)
			s_warp_min[warp] = best;
		__syncthreads();
		best = s_warp_min[0];
#pragma unroll 1
		for (int w = 1; w < nwarps; w++)
			best = min64(best, s_warp_min[w]);
		__syncthreads();  /* everyone has read s_warp_min before the next round writes it */
		if (threadIdx.x == 0)
			out[blockIdx.x * k + r] = best;
		lo = best == NN_NONE ? best : best + 1;
	}
}
