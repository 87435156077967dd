/*
 * dwt2d.cu -- one level of the forward 2D discrete wavelet transform with
 * the CDF 9/7 wavelet (the irreversible JPEG 2000 one), by lifting: rows
 * first, then columns, one tile per block with the intermediate rows in
 * shared memory (the task of Rodinia's dwt2d, written afresh).
 *
 * One 1D level splits a signal x into even samples s_i = x[2i] and odd
 * samples d_i = x[2i+1] and lifts them in four steps,
 *
 *   d_i += A*(s_i + s_i+1);  s_i += B*(d_i-1 + d_i);
 *   d_i += C*(s_i + s_i+1);  s_i += D*(d_i-1 + d_i);
 *
 * then scales s by 1/K (the low band) and d by K/2 (the high band).
 * Beyond its ends the signal is mirrored about its first and last samples
 * (whole-sample symmetric extension).  Outputs i..i+n-1 need s_i-2..s_i+n+1
 * and d_i-2..d_i+n, i.e. x[2i-4 .. 2i+2n+2], lifted over shrinking
 * ranges: lift97 below, fully unrolled so that the window lives in
 * registers; neighbouring threads recompute their overlap rather than
 * exchange it.
 *
 * A block of 128 threads produces a tile of TPX x TPY output pairs: rows
 * py0..py0+TPY of the low and high bands, columns px0..px0+TPX of each.
 * Row pass: the IROWS = 2*TPY + 7 input rows the tile depends on, each
 * lifted by TPX/RP = 2 threads (46 of the 128 work, the rest wait at the
 * barrier) that read their 2*RP + 8 samples straight from global memory
 * as float4s (a scalar, mirrored path at the image edges: a divergent
 * branch), leaving lows and highs side by side in the dynamic shared
 * array rt.  One barrier.  Column pass: each of the 2*TPX columns
 * of rt is lifted by TPY/CP threads, CP pairs each, and written to the
 * low (top) and high (bottom) halves of the output.  Tiles past the
 * image's right or bottom edge compute junk pairs (mirrored inputs,
 * clamped so that they stay inside the image) and do not store them.
 *
 * The host runs several levels, each on the low-low quadrant of the
 * previous one (rows and pitch passed separately), one launch per level.
 */

#define TPX 16                  /* output pairs per tile, across */
#define TPY 8                   /* output pairs per tile, down */
#define RP 8                    /* pairs per row-pass task */
#define CP 2                    /* pairs per column-pass task */
#define IROWS (2 * TPY + 7)     /* input rows a tile needs: 23 */
#define RPITCH (2 * TPX + 1)    /* row of rt: TPX lows, TPX highs, a pad word */
#define BLOCK 128               /* = 2 * TPX * (TPY / CP) column-pass tasks */

#define LA (-1.586134342059924f)
#define LB (-0.052980118572961f)
#define LC (0.882911075530934f)
#define LD (0.443506852043971f)
#define LK (1.230174104914001f)

/* index k mirrored into [0, n): exact for -n < k < 2n - 1, clamped beyond
 * (only junk pairs past the image's edge reach that far) */
__device__ __forceinline__ int mirror(int k, int n)
{
	k = k < 0 ? -k : k;
	k = k >= n ? 2 * n - 2 - k : k;
	return min(max(k, 0), n - 1);
}

/* lift NPR pairs: s[0..NPR+4) are s_i-2..s_i+NPR+1, d[0..NPR+3) are
 * d_i-2..d_i+NPR; on return s[2..NPR+2) and d[2..NPR+2) hold the bands */
template <int NPR>
__device__ __forceinline__ void lift97(float (&s)[NPR + 4], float (&d)[NPR + 3])
{
#pragma unroll
	for (int j = 0; j < NPR + 3; j++)
		d[j] += LA * (s[j] + s[j + 1]);
#pragma unroll
	for (int j = 1; j < NPR + 3; j++)
		s[j] += LB * (d[j - 1] + d[j]);
#pragma unroll
	for (int j = 1; j < NPR + 2; j++)
		d[j] += LC * (s[j] + s[j + 1]);
#pragma unroll
	for (int j = 2; j < NPR + 2; j++)
		s[j] += LD * (d[j - 1] + d[j]);
#pragma unroll
	for (int j = 2; j < NPR + 2; j++) {  /* d[j] is used unscaled above */
		s[j] *= 1.0f / LK;
		d[j] *= 0.5f * LK;
	}
}

/* rows of rt <- row pass over IROWS input rows; RP pairs of one row per thread */
__device__ __forceinline__ void row_pass(const float *__restrict__ src, int spitch, int w,
                                         int h, int px0, int py0, float *rt)
{
	int t = threadIdx.x, r = t / (TPX / RP), q = t % (TPX / RP);
	int p = px0 + q * RP;
	const float *row = src + (size_t)mirror(2 * py0 - 4 + r, h) * spitch;
	float s[RP + 4], d[RP + 3];

	if (2 * p - 4 >= 0 && 2 * p + 2 * RP + 3 < w) {
#pragma unroll
		for (int j = 0; j < (2 * RP + 8) / 4; j++) {
			float4 v = *reinterpret_cast<const float4 *>(row + 2 * p - 4 + 4 * j);
			s[2 * j] = v.x;
			d[2 * j] = v.y;
			if (2 * j + 1 < RP + 4)
				s[2 * j + 1] = v.z;
			if (2 * j + 1 < RP + 3)
				d[2 * j + 1] = v.w;
		}
	} else {
#pragma unroll
		for (int j = 0; j < RP + 4; j++)
			s[j] = row[mirror(2 * p - 4 + 2 * j, w)];
#pragma unroll
		for (int j = 0; j < RP + 3; j++)
			d[j] = row[mirror(2 * p - 3 + 2 * j, w)];
	}
	lift97<RP>(s, d);
#pragma unroll
	for (int j = 0; j < RP; j++) {
		rt[r * RPITCH + q * RP + j] = s[j + 2];
		rt[r * RPITCH + TPX + q * RP + j] = d[j + 2];
	}
}

/* src: h rows of w samples, pitch spitch (a multiple of 4, as w must be);
 * dst: the same shape, low band left/top, high band right/bottom */
extern "C" __global__ void __launch_bounds__(BLOCK)
dwt97_tile(const float *__restrict__ src, int spitch, float *__restrict__ dst, int dpitch,
           int w, int h)
{
	extern __shared__ float rt[];       /* IROWS x RPITCH */
	int t = threadIdx.x;
	int px0 = blockIdx.x * TPX, py0 = blockIdx.y * TPY;

	if (t < IROWS * (TPX / RP))
		row_pass(src, spitch, w, h, px0, py0, rt);
	__syncthreads();

	int c = t % (2 * TPX), g = t / (2 * TPX);   /* rt column, pair group */
	int pc = px0 + c % TPX;                     /* output pair column */
	float s[CP + 4], d[CP + 3];
#pragma unroll
	for (int j = 0; j < CP + 4; j++)
		s[j] = rt[(2 * g * CP + 2 * j) * RPITCH + c];
#pragma unroll
	for (int j = 0; j < CP + 3; j++)
		d[j] = rt[(2 * g * CP + 2 * j + 1) * RPITCH + c];
	lift97<CP>(s, d);
	if (pc >= w / 2)
		return;
	int x = c < TPX ? pc : w / 2 + pc;
#pragma unroll
	for (int j = 0; j < CP; j++) {
		int p = py0 + g * CP + j;
		if (p < h / 2) {
			dst[(size_t)p * dpitch + x] = s[j + 2];
			dst[(size_t)(h / 2 + p) * dpitch + x] = d[j + 2];
		}
	}
}
