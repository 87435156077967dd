/*
 * kmeans.cu -- the two kernels of one k-means (Lloyd) iteration: assign
 * every point to its nearest centre, then add up each cluster's points.
 *
 * Points are stored feature-major, feat[f * npoints + p], so that the
 * threads of a warp, one point each, read consecutive words.  The
 * centres (k x nf floats) live in constant memory, km_centres, written
 * by the host before each iteration (cuModuleGetGlobal + cuMemcpyHtoD):
 * every thread of a warp reads the same centre element at the same time,
 * the broadcast pattern constant memory serves in one access.
 *
 * km_assign loops over clusters and, inside km_sqdist, over features: a
 * nested loop with run-time trip counts.  km_sqdist is __noinline__, so
 * the PTX has a .func and a call per cluster.  Each block counts the
 * points that changed cluster with __syncthreads_count (bar.red.popc) and
 * adds its count to *changed with one global atomic; the host iterates
 * until nothing moves.
 *
 * km_accumulate sums each cluster's features and population in dynamic
 * shared memory with shared-memory atomics (k*(nf+1) counters, so the
 * same few addresses are hit by every thread of a block), then adds the
 * block's non-zero counters into the global sums with global atomics.
 * Features are whole numbers 0-255 stored as floats; they are summed as
 * unsigned integers, exactly, so the sums do not depend on the order in
 * which atomics land.
 */

#define KM_MAXC 1024  /* k * nf limit: 4 KB of constant memory */

__constant__ float km_centres[KM_MAXC];  /* centre c, feature f at [c * nf + f] */

/* squared distance from point p to centre c */
__device__ __noinline__ float km_sqdist(const float *__restrict__ feat, int npoints, int nf,
                                        int p, int c)
{
	float d = 0.0f;

#pragma unroll 1
	for (int f = 0; f < nf; f++) {
		float t = feat[f * npoints + p] - km_centres[c * nf + f];
		d += t * t;
	}
	return d;
}

/* member[p] = the nearest centre to point p (lowest index on ties) */
extern "C" __global__ void km_assign(int npoints, int nf, int k, const float *__restrict__ feat,
                                     int *__restrict__ member, unsigned *__restrict__ changed)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	int moved = 0;

	if (p < npoints) {
		int best = 0;
		float bestd = km_sqdist(feat, npoints, nf, p, 0);
#pragma unroll 1
		for (int c = 1; c < k; c++) {
			float d = km_sqdist(feat, npoints, nf, p, c);
			if (d < bestd) {
				bestd = d;
				best = c;
			}
		}
		moved = member[p] != best;
		member[p] = best;
	}
	int nmoved = __syncthreads_count(moved);
	if (threadIdx.x == 0 && nmoved)
		atomicAdd(changed, (unsigned)nmoved);
}

/* sums[c * nf + f] += feature f of cluster c's points; sums[k * nf + c] += their number */
extern "C" __global__ void km_accumulate(int npoints, int nf, int k,
                                         const float *__restrict__ feat,
                                         const int *__restrict__ member,
                                         unsigned *__restrict__ sums)
{
	extern __shared__ unsigned s_sums[];  /* k * (nf + 1) */
	int nsums = k * (nf + 1);
	int p = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = threadIdx.x; i < nsums; i += blockDim.x)
		s_sums[i] = 0;
	__syncthreads();
	if (p < npoints) {
		int c = member[p];
#pragma unroll 1
		for (int f = 0; f < nf; f++)
			atomicAdd(&s_sums[c * nf + f], (unsigned)feat[f * npoints + p]);
		atomicAdd(&s_sums[k * nf + c], 1u);
	}
	__syncthreads();
	for (int i = threadIdx.x; i < nsums; i += blockDim.x)
		if (s_sums[i])
			atomicAdd(&sums[i], s_sums[i]);
}
