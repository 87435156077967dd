/*
 * lud.cu -- blocked LU decomposition in place, without pivoting
 * (Rodinia's lud, written afresh).  The n x n matrix is cut into 16 x 16
 * tiles; for each diagonal tile d the host launches
 *
 *   lud_diagonal   one block of 16 threads: factor tile (d, d) in shared
 *                  memory, a column of multipliers and a trailing update
 *                  per step, two barriers per step of the loop;
 *   lud_perimeter  a block of 32 threads per remaining tile of row d and
 *                  column d: threads 0-15 solve L_dd * U = A for one
 *                  column of the row tile (forward substitution), threads
 *                  16-31 solve L * U_dd = A for one row of the column tile
 *                  -- two halves of a warp on different paths;
 *   lud_internal   a 16 x 16 block per trailing tile (i, j):
 *                  A_ij -= L_id * U_dj, both panels staged in shared
 *                  memory, a 16-term dot product per thread;
 *
 * then factors the last diagonal tile.  The three kernels are limited by
 * block slots and threads, not registers: the first two run 16 and 32
 * threads per block, and lud_internal's dot product is unrolled only
 * 4-way, which keeps it near 20 registers (6 blocks of 256 fit a
 * Fermi-like SM's 32K registers).  The trailing grid shrinks from (n/16 - 1)^2 blocks
 * to one.  Row pitch is n; tile offsets are in elements.
 */

#define T 16

/* factor the diagonal tile at (off, off); blockDim.x == T */
extern "C" __global__ void lud_diagonal(float *a, int n, int off)
{
	__shared__ float s[T][T + 1];
	int tx = threadIdx.x;

	for (int r = 0; r < T; r++)
		s[r][tx] = a[(off + r) * n + off + tx];
	__syncthreads();
	for (int k = 0; k < T - 1; k++) {
		if (tx > k)
			s[tx][k] /= s[k][k];
		__syncthreads();
		if (tx > k)
			for (int j = k + 1; j < T; j++)
				s[tx][j] -= s[tx][k] * s[k][j];
		__syncthreads();
	}
	for (int r = 0; r < T; r++)
		a[(off + r) * n + off + tx] = s[r][tx];
}

/* the row and column tiles beside the diagonal tile; blockDim.x == 2 * T */
extern "C" __global__ void lud_perimeter(float *a, int n, int off)
{
	__shared__ float s_dia[T][T + 1], s_row[T][T + 1], s_col[T][T + 1];
	int tx = threadIdx.x, half = tx / T, i = tx % T;
	int far = off + (blockIdx.x + 1) * T;  /* the row tile's columns, the column tile's rows */

	for (int r = 0; r < T; r++) {
		if (half == 0) {
			s_dia[r][i] = a[(off + r) * n + off + i];
			s_row[r][i] = a[(off + r) * n + far + i];
		} else {
			s_col[r][i] = a[(far + r) * n + off + i];
		}
	}
	__syncthreads();
	if (half == 0) {  /* column i of the row tile: U = L_dd^-1 A, L unit lower */
		for (int r = 1; r < T; r++) {
			float v = s_row[r][i];
			for (int k = 0; k < r; k++)
				v -= s_dia[r][k] * s_row[k][i];
			s_row[r][i] = v;
		}
	} else {          /* row i of the column tile: L = A U_dd^-1, U upper */
		for (int c = 0; c < T; c++) {
			float v = s_col[i][c];
			for (int k = 0; k < c; k++)
				v -= s_col[i][k] * s_dia[k][c];
			s_col[i][c] = v / s_dia[c][c];
		}
	}
	__syncthreads();
	for (int r = 0; r < T; r++) {
		if (half == 0)
			a[(off + r) * n + far + i] = s_row[r][i];
		else
			a[(far + r) * n + off + i] = s_col[r][i];
	}
}

/* trailing tile (off + (y+1)T, off + (x+1)T) -= L panel tile * U panel tile */
extern "C" __global__ void lud_internal(float *a, int n, int off)
{
	__shared__ float s_l[T][T], s_u[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = off + (blockIdx.y + 1) * T + ty, col = off + (blockIdx.x + 1) * T + tx;

	s_l[ty][tx] = a[row * n + off + tx];
	s_u[ty][tx] = a[(off + ty) * n + col];
	__syncthreads();
	float sum = 0.0f;
#pragma unroll 4  /* fully unrolled it needs 32 registers, 4-way 20 */
	for (int k = 0; k < T; k++)
		sum += s_l[ty][k] * s_u[k][tx];
	a[row * n + col] -= sum;
}
