/*
 * tpacf.cu -- two-point angular correlation: a histogram of the angles
 * between pairs of points on the celestial sphere (the counting kernel of
 * Parboil's TPACF, written afresh).
 *
 * Points are unit vectors; the angle of a pair is read off its dot
 * product.  The bin edges are given as cosines, decreasing, in constant
 * memory: slot k of the histogram counts the pairs with
 * edge[k-1] >= dot > edge[k] (edge[-1] = +inf, edge[NEDGE] = -inf), found
 * by a binary search whose trip count depends on the data (a divergent
 * loop reading constant memory at divergent addresses).
 *
 * One launch counts the pairs between two point sets A and B (D x R), or
 * within one set, each unordered pair once (auto = 1: D x D, R x R).  The
 * grid is 2D: blockIdx.x picks a tile of 128 * PPT points of A, one per
 * thread per PPT slot, held in registers; blockIdx.y a tile of TB points
 * of B, staged through shared memory 128 at a time between barriers (a
 * loop with bar.sync).  In auto mode a pair counts only if j > i, and
 * blocks whose B tile lies entirely before their A tile leave at once.
 * Counts go to per-warp sub-histograms in dynamic shared memory with
 * shared atomics, then into the global histogram with global atomics, so
 * the result does not depend on the order of blocks or warps.
 */

#define NEDGE 21          /* bin edges: NEDGE + 1 slots */
#define NSLOT (NEDGE + 1)
#define PPT 4             /* A points per thread */
#define BLOCK 128

__constant__ float tpacf_edge[NEDGE];   /* cosines of the bin edges, decreasing */

/* slot of dot: the first k with edge[k] < dot, NEDGE if none */
__device__ __forceinline__ int slot_of(float dot)
{
	int lo = 0, hi = NEDGE;

	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (tpacf_edge[mid] < dot)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* hist[NSLOT] += pair counts of A[a0..a0+128*PPT) x B[b0..b0+tb); dynamic
 * shared memory: (BLOCK / 32) * NSLOT unsigned */
extern "C" __global__ void __launch_bounds__(BLOCK)
tpacf_hist(const float *__restrict__ ax, const float *__restrict__ ay,
           const float *__restrict__ az, int na, const float *__restrict__ bx,
           const float *__restrict__ by, const float *__restrict__ bz, int nb, int tb,
           int autocorr, unsigned *__restrict__ hist)
{
	extern __shared__ unsigned whist[];          /* [warp][slot] */
	__shared__ float sx[BLOCK], sy[BLOCK], sz[BLOCK];
	int t = threadIdx.x;
	int a0 = blockIdx.x * BLOCK * PPT, b0 = blockIdx.y * tb, b1 = min(b0 + tb, nb);
	unsigned *mine = whist + t / 32 * NSLOT;
	float px[PPT], py[PPT], pz[PPT];
	int ia[PPT];

	if (autocorr && b1 <= a0 + 1)      /* every j <= every i: no pair counts */
		return;
	for (int k = t; k < BLOCK / 32 * NSLOT; k += BLOCK)
		whist[k] = 0;
#pragma unroll
	for (int p = 0; p < PPT; p++) {
		ia[p] = a0 + p * BLOCK + t;
		int i = min(ia[p], na - 1);
		px[p] = ax[i];
		py[p] = ay[i];
		pz[p] = az[i];
	}
	for (int c0 = b0; c0 < b1; c0 += BLOCK) {
		__syncthreads();               /* the previous chunk is consumed */
		if (c0 + t < b1) {
			sx[t] = bx[c0 + t];
			sy[t] = by[c0 + t];
			sz[t] = bz[c0 + t];
		}
		__syncthreads();
		int n = min(BLOCK, b1 - c0);
		for (int j = 0; j < n; j++) {
			float qx = sx[j], qy = sy[j], qz = sz[j];
#pragma unroll
			for (int p = 0; p < PPT; p++) {
				if (ia[p] < na && (!autocorr || c0 + j > ia[p])) {
					float dot = px[p] * qx + py[p] * qy + pz[p] * qz;
					atomicAdd(&mine[slot_of(dot)], 1u);
				}
			}
		}
	}
	__syncthreads();
	for (int k = t; k < NSLOT; k += BLOCK) {
		unsigned s = 0;
		for (int wp = 0; wp < BLOCK / 32; wp++)
			s += whist[wp * NSLOT + k];
		atomicAdd(&hist[k], s);
	}
}
