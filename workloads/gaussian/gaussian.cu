/*
 * gaussian.cu -- Gaussian elimination of A x = b without pivoting, one
 * pivot per pair of launches (Rodinia's gaussian: Fan1 and Fan2, written
 * afresh).  The host loops t = 0 .. n-2:
 *
 *   gauss_fan1  one thread per row i > t: the multiplier
 *               m[i][t] = a[i][t] / a[t][t];
 *   gauss_fan2  one thread per element of the trailing block, rows i > t,
 *               columns j >= t: a[i][j] -= m[i][t] * a[t][j], and the
 *               column-t threads also update b[i] -= m[i][t] * b[t].
 *
 * Matrices are n x n, row-major.  The host sizes each launch's grid to
 * the shrinking trailing block, so the number of blocks per launch falls
 * from O(n^2/256) to 1 over the run; both kernels are short and
 * memory-bound, with bounds checks on the ragged edge of the grid (warps
 * diverge there), and the run is many small launches, as in Rodinia.
 * After the last pivot a holds U on and above the diagonal, m holds L's
 * multipliers below it, and b the transformed right-hand side.
 */

extern "C" __global__ void gauss_fan1(int n, int t, const float *__restrict__ a,
                                      float *__restrict__ m)
{
	int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		m[i * n + t] = a[i * n + t] / a[t * n + t];
}

extern "C" __global__ void gauss_fan2(int n, int t, float *__restrict__ a,
                                      float *__restrict__ b, const float *__restrict__ m)
{
	int j = t + blockIdx.x * blockDim.x + threadIdx.x;
	int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;

	if (i >= n || j >= n)
		return;
	float mi = m[i * n + t];
	a[i * n + j] -= mi * a[t * n + j];
	if (j == t)
		b[i] -= mi * b[t];
}
