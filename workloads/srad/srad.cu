/*
 * srad.cu -- speckle reducing anisotropic diffusion (Yu and Acton, IEEE
 * TIP 2002), the image filter of Rodinia's srad, written afresh: three
 * kernels per iteration, the host iterating.
 *
 *   srad_stats   sum and sum of squares of the image, per block: a warp
 *                reduction with __shfl_down_sync, then the 8 warp totals
 *                through shared memory, reduced by the first warp; the
 *                host adds the blocks' partials and derives q0^2, the
 *                speckle scale (variance over squared mean);
 *   srad_coeff   per pixel, from the 4-neighbour differences, the
 *                instantaneous coefficient of variation q^2 and the
 *                diffusion coefficient c = 1 / (1 + (q^2 - q0^2) /
 *                (q0^2 (1 + q0^2))), clamped to [0, 1];
 *   srad_update  J += lambda/4 * (cN dN + cS dS + cW dW + cE dE), with
 *                cN = cW = c(i, j), cS = c(i+1, j), cE = c(i, j+1),
 *                into a second image (the neighbours read the old one).
 *
 * Blocks are 16 x 16 threads, one pixel each.  The stencil kernels stage
 * their tile plus a one-pixel halo in shared memory; halo pixels outside
 * the image repeat the edge (zero flux at the border), so the loads clamp
 * their indices, and the 324 cells of an 18 x 18 tile take the 256
 * threads one or two trips of the loading loop (warps diverge on it).
 * The arithmetic is written out in a fixed order with plain float
 * operations (divisions are IEEE, nvcc's default) so that srad.c can
 * bound its rounding error formula by formula.
 */

#define TS 16          /* tile side: blockDim is TS x TS */
#define HS (TS + 2)    /* with the halo */

/* s = the tile at (r0, c0) of src (rows x cols) with a halo of h before and a after it,
 * indices clamped to the image */
__device__ __forceinline__ void load_tile(float *s, int side, int before,
                                          const float *__restrict__ src, int rows, int cols,
                                          int r0, int c0)
{
#pragma unroll 1
	for (int k = threadIdx.y * TS + threadIdx.x; k < side * side; k += TS * TS) {
		int r = min(max(r0 - before + k / side, 0), rows - 1);
		int c = min(max(c0 - before + k % side, 0), cols - 1);
		s[k] = src[r * cols + c];
	}
}

/* partial[2b] = sum of block b's pixels, partial[2b+1] = sum of their squares */
extern "C" __global__ void srad_stats(int rows, int cols, const float *__restrict__ J,
                                      float *__restrict__ partial)
{
	__shared__ float s_warp[2][TS * TS / 32];
	int r = blockIdx.y * TS + threadIdx.y, c = blockIdx.x * TS + threadIdx.x;
	int t = threadIdx.y * TS + threadIdx.x, lane = t % 32, warp = t / 32;
	float v = r < rows && c < cols ? J[r * cols + c] : 0.0f;
	float sum = v, sq = v * v;

	for (int off = 16; off > 0; off /= 2) {
		sum += __shfl_down_sync(0xffffffffu, sum, off);
		sq += __shfl_down_sync(0xffffffffu, sq, off);
	}
	if (lane == 0) {
		s_warp[0][warp] = sum;
		s_warp[1][warp] = sq;
	}
	__syncthreads();
	if (warp == 0) {
		sum = lane < TS * TS / 32 ? s_warp[0][lane] : 0.0f;
		sq = lane < TS * TS / 32 ? s_warp[1][lane] : 0.0f;
		for (int off = TS * TS / 64; off > 0; off /= 2) {
			sum += __shfl_down_sync(0xffffffffu, sum, off);
			sq += __shfl_down_sync(0xffffffffu, sq, off);
		}
		if (lane == 0) {
			int b = blockIdx.y * gridDim.x + blockIdx.x;
			partial[2 * b] = sum;
			partial[2 * b + 1] = sq;
		}
	}
}

/* C = the diffusion coefficient of every pixel of J */
extern "C" __global__ void srad_coeff(int rows, int cols, float q0sqr,
                                      const float *__restrict__ J, float *__restrict__ C)
{
	__shared__ float s[HS][HS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * TS + ty, c = blockIdx.x * TS + tx;

	load_tile(&s[0][0], HS, 1, J, rows, cols, blockIdx.y * TS, blockIdx.x * TS);
	__syncthreads();
	if (r >= rows || c >= cols)
		return;
	float jc = s[ty + 1][tx + 1];
	float dN = s[ty][tx + 1] - jc, dS = s[ty + 2][tx + 1] - jc;
	float dW = s[ty + 1][tx] - jc, dE = s[ty + 1][tx + 2] - jc;
	float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
	float l = (dN + dS + dW + dE) / jc;
	float num = 0.5f * g2 - 0.0625f * (l * l);
	float den = 1.0f + 0.25f * l;
	float qsqr = num / (den * den);
	den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
	float cv = 1.0f / (1.0f + den);
	if (cv < 0.0f)
		cv = 0.0f;
	else if (cv > 1.0f)
		cv = 1.0f;
	C[r * cols + c] = cv;
}

/* Jout = J + lambda/4 * divergence of (c * gradient J) */
extern "C" __global__ void srad_update(int rows, int cols, float lambda,
                                       const float *__restrict__ J, const float *__restrict__ C,
                                       float *__restrict__ Jout)
{
	__shared__ float s[HS][HS];
	__shared__ float s_c[TS + 1][TS + 1];  /* C's tile with its south and east halo */
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * TS + ty, c = blockIdx.x * TS + tx;

	load_tile(&s[0][0], HS, 1, J, rows, cols, blockIdx.y * TS, blockIdx.x * TS);
	load_tile(&s_c[0][0], TS + 1, 0, C, rows, cols, blockIdx.y * TS, blockIdx.x * TS);
	__syncthreads();
	if (r >= rows || c >= cols)
		return;
	float jc = s[ty + 1][tx + 1];
	float dN = s[ty][tx + 1] - jc, dS = s[ty + 2][tx + 1] - jc;
	float dW = s[ty + 1][tx] - jc, dE = s[ty + 1][tx + 2] - jc;
	float cN = s_c[ty][tx], cS = s_c[ty + 1][tx], cE = s_c[ty][tx + 1];
	float d = cN * dN + cS * dS + cN * dW + cE * dE;
	Jout[r * cols + c] = jc + 0.25f * lambda * d;
}
