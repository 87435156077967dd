/*
 * particlefilter.cu -- one frame of a particle filter tracking a bright
 * disc through a noisy video (the scheme of Rodinia's particlefilter with
 * the colour-histogram likelihood of Nummiaro et al.; written afresh), in
 * three kernels the host launches once per frame.
 *
 * pf_likelihood: each particle moves by its random step (drawn on the
 * host), then samples the frame at PF_NOFF points of a disc around its
 * rounded position (offsets in constant memory, coordinates clamped to
 * the frame, byte loads) and builds the histogram of their intensities in
 * PF_NBIN bins.  The likelihood compares it with the target histogram q
 * (constant memory) through the Bhattacharyya coefficient
 * rho = sum_b sqrt(p_b * q_b), and the weight is multiplied by
 * exp(-PF_LAMBDA * (1 - rho)).  The block's new weights are summed in
 * shared memory into partial[block].  A thread carries PPT particles at
 * once, so their clamped centres and 4 x PPT bin counters (kept in
 * registers by comparing each sample's bin with every b) are all live in
 * the sampling loop.
 *
 * pf_cdf: every block reduces all the partial sums (the total) and those
 * of the blocks before it (its offset) in shared memory, then scans its
 * weights with an inclusive Hillis-Steele scan in dynamic shared memory
 * (barriers inside both loops), giving cdf = (offset + scan) / total.
 *
 * pf_resample: systematic resampling.  Particle j of the new generation
 * takes the position of the first particle whose CDF reaches
 * u_j = (j + u0) / n, found by find_index, a binary search kept out of
 * line (__noinline__: a real .func and call in the PTX); every weight is
 * reset to 1/n.
 */

#define PF_NOFF 13              /* offsets (dx, dy) with dx^2 + dy^2 <= 4 */
#define PF_NBIN 4               /* intensity bins: I >> 6 */
#define PF_LAMBDA 20.0f
#define BLOCK 128
#define PPT 4                   /* particles per thread in pf_likelihood */

__constant__ int2 pf_off[PF_NOFF];
__constant__ float pf_q[PF_NBIN];   /* target histogram */

extern "C" __global__ void __launch_bounds__(BLOCK)
pf_likelihood(const unsigned char *__restrict__ frame, int w, int h, int n,
              float *__restrict__ x, float *__restrict__ y, const float *__restrict__ step,
              float *__restrict__ wt, float *__restrict__ partial)
{
	__shared__ float red[BLOCK];
	int t = threadIdx.x, i0 = blockIdx.x * BLOCK * PPT + t;
	int cx[PPT], cy[PPT], cnt[PPT][PF_NBIN];
	float acc = 0.0f;

#pragma unroll
	for (int p = 0; p < PPT; p++) {
		int i = min(i0 + p * BLOCK, n - 1);
		float nx = x[i] + step[2 * i], ny = y[i] + step[2 * i + 1];
		cx[p] = __float2int_rn(nx);
		cy[p] = __float2int_rn(ny);
#pragma unroll
		for (int b = 0; b < PF_NBIN; b++)
			cnt[p][b] = 0;
		if (i0 + p * BLOCK < n) {
			x[i] = nx;
			y[i] = ny;
		}
	}
	for (int k = 0; k < PF_NOFF; k++) {
		int2 o = pf_off[k];
#pragma unroll
		for (int p = 0; p < PPT; p++) {
			int px = min(max(cx[p] + o.x, 0), w - 1);
			int py = min(max(cy[p] + o.y, 0), h - 1);
			int bin = frame[py * w + px] >> 6;
#pragma unroll
			for (int b = 0; b < PF_NBIN; b++)
				cnt[p][b] += bin == b;
		}
	}
#pragma unroll
	for (int p = 0; p < PPT; p++) {
		int i = i0 + p * BLOCK;
		float rho = 0.0f;
#pragma unroll
		for (int b = 0; b < PF_NBIN; b++)
			rho += sqrtf((float)cnt[p][b] / (float)PF_NOFF * pf_q[b]);
		if (i < n) {
			float v = wt[i] * expf(-PF_LAMBDA * (1.0f - rho));
			wt[i] = v;
			acc += v;
		}
	}
	red[t] = acc;
	__syncthreads();
	for (int s = BLOCK / 2; s > 0; s >>= 1) {
		if (t < s)
			red[t] += red[t + s];
		__syncthreads();
	}
	if (t == 0)
		partial[blockIdx.x] = red[0];
}

/* cdf[i] = (sum of wt[0..i]) / total, where block b of blockDim.x
 * particles (blockDim.x = BLOCK * PPT, a power of two, with twice that
 * many floats of dynamic shared memory) owns partial[b] */
extern "C" __global__ void pf_cdf(const float *__restrict__ wt, int n,
                                  const float *__restrict__ partial, int nparts,
                                  float *__restrict__ cdf)
{
	extern __shared__ float sh[];
	float *so = sh, *st = sh + blockDim.x;   /* offset and total partial sums */
	int t = threadIdx.x, nt = blockDim.x, i = blockIdx.x * nt + t;
	float po = 0.0f, pt = 0.0f;

	for (int b = t; b < nparts; b += nt) {
		pt += partial[b];
		if (b < blockIdx.x)
			po += partial[b];
	}
	so[t] = po;
	st[t] = pt;
	__syncthreads();
	for (int s = nt / 2; s > 0; s >>= 1) {
		if (t < s) {
			so[t] += so[t + s];
			st[t] += st[t + s];
		}
		__syncthreads();
	}
	float offset = so[0], total = st[0];
	__syncthreads();                         /* so[] becomes the scan */

	so[t] = i < n ? wt[i] : 0.0f;
	__syncthreads();
	for (int s = 1; s < nt; s <<= 1) {
		float v = t >= s ? so[t - s] : 0.0f;
		__syncthreads();
		so[t] += v;
		__syncthreads();
	}
	if (i < n)
		cdf[i] = (offset + so[t]) / total;
}

/* the first i with cdf[i] >= u, or n - 1 if rounding left u above them all */
__device__ __noinline__ int find_index(const float *__restrict__ cdf, int n, float u)
{
	int lo = 0, hi = n - 1;

	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (cdf[mid] >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

extern "C" __global__ void pf_resample(const float *__restrict__ cdf, int n,
                                       const float *__restrict__ x,
                                       const float *__restrict__ y, float u0,
                                       float *__restrict__ xn, float *__restrict__ yn,
                                       float *__restrict__ wt)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j >= n)
		return;
	int i = find_index(cdf, n, ((float)j + u0) / (float)n);
	xn[j] = x[i];
	yn[j] = y[i];
	wt[j] = 1.0f / (float)n;
}
