/*
 * sgemm.cu -- C = alpha*A*B + beta*C for row-major float matrices
 * (A is MxK, B is KxN, C is MxN), the register-hungry kernel of the suite.
 *
 * A block of 64 threads computes a 32x32 tile of C; each thread owns a
 * 4x4 sub-tile, kept in 16 accumulator registers for the whole K loop
 * (register blocking).  K is walked in steps of 16: the block stages a
 * 32x16 tile of A and a 16x32 tile of B in shared memory, and each thread
 * then does 16 x (4+4 loads, 16 FMAs) out of it, fully unrolled, reading
 * its four A values and four B values with 128-bit shared loads.  While a
 * tile is being consumed the next one is already being fetched from global
 * memory into 16 staging registers (software prefetch), so about 50 values
 * are live across the inner loop: this is the kernel whose occupancy the
 * register file limits.
 *
 * A's tile is stored transposed (As[k][m]) so that a thread's four rows
 * are contiguous; its rows are padded to 36 floats, which keeps them
 * 16-byte aligned and turns the 16-way bank conflict of the transposing
 * store into a 2-way one.  Sizes need not be multiples of the tile: loads
 * outside A or B read as zero and stores outside C are skipped.  As in
 * BLAS, beta == 0 means C is not read.
 */

#define BM 32                              /* tile rows (of C and A) */
#define BN 32                              /* tile columns (of C and B) */
#define BK 16                              /* tile depth */
#define TM 4                               /* rows per thread */
#define TN 4                               /* columns per thread */
#define NTHREADS ((BM / TM) * (BN / TN))   /* 64 */
#define A_LOADS (BM * BK / NTHREADS)       /* A elements staged per thread: 8 */
#define B_LOADS (BK * BN / NTHREADS)       /* B elements staged per thread: 8 */
#define AS_PITCH (BM + 4)                  /* padded row of the transposed A tile */

/* fetch the A and B tiles starting at depth k0 into registers, zero-filled */
__device__ __forceinline__ void fetch_tiles(int M, int N, int K, int m0, int n0, int k0,
                                            const float *__restrict__ A, int lda,
                                            const float *__restrict__ B, int ldb,
                                            float ra[A_LOADS], float rb[B_LOADS])
{
#pragma unroll
	for (int l = 0; l < A_LOADS; l++) {
		int e = threadIdx.x + l * NTHREADS;
		int m = m0 + e / BK, k = k0 + e % BK;
		ra[l] = (m < M && k < K) ? A[m * lda + k] : 0.0f;
	}
#pragma unroll
	for (int l = 0; l < B_LOADS; l++) {
		int e = threadIdx.x + l * NTHREADS;
		int k = k0 + e / BN, n = n0 + e % BN;
		rb[l] = (k < K && n < N) ? B[k * ldb + n] : 0.0f;
	}
}

extern "C" __global__ void __launch_bounds__(NTHREADS)
sgemm_nn(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
         const float *__restrict__ B, int ldb, float beta, float *__restrict__ C, int ldc)
{
	__shared__ __align__(16) float As[BK][AS_PITCH];  /* As[k][m] = A[m0+m][k0+k] */
	__shared__ __align__(16) float Bs[BK][BN];        /* Bs[k][n] = B[k0+k][n0+n] */
	int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
	int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	float acc[TM][TN];
	float ra[A_LOADS], rb[B_LOADS];

#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.0f;

	fetch_tiles(M, N, K, m0, n0, 0, A, lda, B, ldb, ra, rb);
	for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
		for (int l = 0; l < A_LOADS; l++) {
			int e = threadIdx.x + l * NTHREADS;
			As[e % BK][e / BK] = ra[l];
		}
#pragma unroll
		for (int l = 0; l < B_LOADS; l++) {
			int e = threadIdx.x + l * NTHREADS;
			Bs[e / BN][e % BN] = rb[l];
		}
		__syncthreads();
		if (k0 + BK < K)
			fetch_tiles(M, N, K, m0, n0, k0 + BK, A, lda, B, ldb, ra, rb);
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float4 a4 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM]);
			float4 b4 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * TN]);
			float a[TM] = { a4.x, a4.y, a4.z, a4.w };
			float b[TN] = { b4.x, b4.y, b4.z, b4.w };
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}

#pragma unroll
	for (int i = 0; i < TM; i++) {
		int m = m0 + ty * TM + i;
		if (m >= M)
			break;
#pragma unroll
		for (int j = 0; j < TN; j++) {
			int n = n0 + tx * TN + j;
			if (n < N) {
				float v = alpha * acc[i][j];
				C[m * ldc + n] = beta == 0.0f ? v : v + beta * C[m * ldc + n];
			}
		}
	}
}
