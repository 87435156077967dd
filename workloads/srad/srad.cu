/*
 * srad.cu -- speckle reducing anisotropic diffusion (Yu and Acton, IEEE
 * TIP 2002), the image filter of Rodinia's srad, written afresh: three
 * kernels per iteration, the host iterating.
 *
 *   srad_stats   sum and sum of squares of the image, per block: a warp
 *                reduction with __shfl_down_sync, then the 4 warp totals
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
 * Blocks are 16 x 8 threads, one pixel each.  The stencil kernels stage
 * their tile plus a one-pixel halo in shared memory; halo pixels outside
 * the image repeat the edge (zero flux at the border), so the loads clamp
 * their indices, and the 180 cells of an 18 x 10 tile take the 128
 * threads one or two trips of the loading loop (warps diverge on it).
 * Blocks of 128 leave occupancy to the thread and block-slot limits even
 * at the ~24 registers the update kernel needs (with 16 x 16 blocks a
 * Fermi-like SM would hold fewer blocks for want of registers).
 * The arithmetic is written out in a fixed order with plain float
 * operations (divisions are IEEE, nvcc's default) so that srad.c can
 * bound its rounding error formula by formula.
 */

#define TX 16              /* tile width: blockDim is TX x TY */
#define TY 8               /* tile height */
#define NT (TX * TY)       /* threads per block */

/* s[h][w] = the h x w window of src (rows x cols) whose top left is (r0, c0), indices
 * clamped to the image (so the border pixels repeat) */
__device__ __forceinline__ void load_tile(float *s, int h, int w, const float *__restrict__ src,
                                          int rows, int cols, int r0, int c0)
{
#pragma unroll 1
	for (int k = threadIdx.y * TX + threadIdx.x; k < h * w; k += NT) {
		int r = min(max(r0 + k / w, 0), rows - 1);
		int c = min(max(c0 + k % w, 0), cols - 1);
		s[k] = src[r * cols + c];
	}
}

/* partial[2b] = sum of block b's pixels, partial[2b+1] = sum of their squares */
extern "C" __global__ void srad_stats(int rows, int cols, const float *__restrict__ J,
                                      float *__restrict__ partial)
{
	__shared__ float s_warp[2][NT / 32];
	int r = blockIdx.y * TY + threadIdx.y, c = blockIdx.x * TX + threadIdx.x;
	int t = threadIdx.y * TX + threadIdx.x, lane = t % 32, warp = t / 32;
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
		sum = lane < NT / 32 ? s_warp[0][lane] : 0.0f;
		sq = lane < NT / 32 ? s_warp[1][lane] : 0.0f;
		for (int off = NT / 64; off > 0; off /= 2) {
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
	__shared__ float s[TY + 2][TX + 2];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * TY + ty, c = blockIdx.x * TX + tx;

	load_tile(&s[0][0], TY + 2, TX + 2, J, rows, cols, blockIdx.y * TY - 1,
	          blockIdx.x * TX - 1);
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
	__shared__ float s[TY + 2][TX + 2];
	__shared__ float s_c[TY + 1][TX + 1];  /* C's tile with its south and east halo */
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * TY + ty, c = blockIdx.x * TX + tx;

	load_tile(&s[0][0], TY + 2, TX + 2, J, rows, cols, blockIdx.y * TY - 1,
	          blockIdx.x * TX - 1);
	load_tile(&s_c[0][0], TY + 1, TX + 1, C, rows, cols, blockIdx.y * TY, blockIdx.x * TX);
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
