/*
 * spmv.cu -- y = A*x for a sparse matrix in compressed sparse row (CSR)
 * form, two ways (the two classic kernels of Bell and Garland, "Efficient
 * sparse matrix-vector multiplication on CUDA", NVIDIA TR-2008-004).
 *
 * Scalar: one thread per row walks its row's nonzeros.  Row lengths vary
 * wildly, so the loop trip count is data-dependent, a warp runs as long as
 * its longest row, and the gathers x[col[e]] are uncoalesced.
 *
 * Vector: one warp per row; lane l takes nonzeros l, l+32, ... so the
 * loads of val and col are coalesced, and the 32 partial sums are added
 * by a butterfly of __shfl_xor_sync in warp_sum, a __noinline__ device
 * function (a real .func and call in the PTX, with shuffles inside it).
 * Whole warps exit together, so the shuffles always run with every lane:
 * the block size must be a multiple of 32.
 *
 * The row loops are kept rolled (#pragma unroll 1): unrolled by four, as
 * nvcc would, they need 32 registers per thread, which would make the
 * kernels register-limited on a Fermi-like SM; rolled they need about 20,
 * and occupancy is limited by threads, as in the papers' SpMV.
 */

/* the sum of v over the 32 lanes of the warp, in every lane */
__device__ __noinline__ float warp_sum(float v)
{
	for (int mask = 16; mask > 0; mask /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, mask);
	return v;
}

/* y[r] = sum over row r of val[e] * x[col[e]], one thread per row */
extern "C" __global__ void spmv_csr_scalar(int nrows, const int *__restrict__ rowptr,
                                           const int *__restrict__ col,
                                           const float *__restrict__ val,
                                           const float *__restrict__ x,
                                           float *__restrict__ y)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;

	if (r >= nrows)
		return;
	float sum = 0.0f;
#pragma unroll 1
	for (int e = rowptr[r], end = rowptr[r + 1]; e < end; e++)
		sum += val[e] * x[col[e]];
	y[r] = sum;
}

/* the same product, one warp per row */
extern "C" __global__ void spmv_csr_vector(int nrows, const int *__restrict__ rowptr,
                                           const int *__restrict__ col,
                                           const float *__restrict__ val,
                                           const float *__restrict__ x,
                                           float *__restrict__ y)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int lane = threadIdx.x % 32;

	if (r >= nrows)  /* uniform across the warp */
		return;
	float sum = 0.0f;
#pragma unroll 1
	for (int e = rowptr[r] + lane, end = rowptr[r + 1]; e < end; e += 32)
		sum += val[e] * x[col[e]];
	sum = warp_sum(sum);
	if (lane == 0)
		y[r] = sum;
}
