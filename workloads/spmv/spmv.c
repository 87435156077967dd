/*
 * spmv.c -- host side of spmv (see spmv.cu): y = A*x for a random sparse
 * square matrix in CSR form, by the scalar kernel (a thread per row) and
 * by the vector kernel (a warp per row), each checked against a CPU
 * product in double.
 *
 * The matrix: row lengths are uneven on purpose.  One row in 64 is empty,
 * one in 32 is long (64-319 nonzeros, a "hub"), the rest have 1-16; so a
 * scalar warp waits for its longest row and a vector warp idles most
 * lanes on a short one.  Half of a row's columns fall within +-256 of the
 * diagonal (some locality in x), half anywhere; columns are sorted within
 * a row and may repeat, as unmerged assembly can produce.
 *
 * Sizes: 1,024 (small), 65,536 (default), 262,144 (large) rows, about 14
 * nonzeros per row on average.  Blocks of 256 threads: the scalar kernel
 * runs 4, 256 and 1,024 blocks, the vector kernel (8 rows per block) 128,
 * 8,192 and 32,768.
 *
 * Tolerance.  The reference is in double, exact to ~1e-16 relative.  Each
 * kernel sums products in float: the scalar one sequentially over the
 * row's len terms, so each product passes through at most len + 1
 * roundings (its own product, unless fused, and len additions); the vector
 * one sequentially over ceil(len/32) terms per lane, then 5 butterfly
 * levels.  A summation of height h has |error| <= h*u*sum|a_ij*x_j| to
 * first order (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
 * ed., section 4.2), so each y_i is checked against (h + 2)*u*sum|a_ij*x_j|
 * with h = len + 1 or ceil(len/32) + 6, the extra u for second order terms.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 256, WARP = 32, BAND = 256 };

typedef struct Csr {
	int n, nnz;       /* rows (= columns), nonzeros */
	int *rowptr;      /* n + 1 offsets */
	int *col;         /* nnz column indices, sorted within each row */
	float *val, *x;   /* nnz values; the vector x (n) */
	double *want;     /* reference y */
	double *mag;      /* sum |a_ij * x_j| per row */
	double *bound;    /* mag scaled by the row's rounding count, for the check */
} Csr;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int row_len(WlRng *rng)
{
	uint32_t kind = wl_rng_below(rng, 64);

	if (kind == 0)
		return 0;
	if (kind <= 2)
		return 64 + (int)wl_rng_below(rng, 256);
	return 1 + (int)wl_rng_below(rng, 16);
}

static int make_matrix(Csr *m, uint64_t seed)
{
	WlRng rng;
	int cap = m->n * 20;

	wl_rng_init(&rng, seed, 1);
	m->rowptr = malloc((size_t)(m->n + 1) * sizeof(int));
	m->col = malloc((size_t)cap * sizeof(int));
	m->x = malloc((size_t)m->n * sizeof(float));
	if (!m->rowptr || !m->col || !m->x)
		return -1;
	m->nnz = 0;
	for (int r = 0; r < m->n; r++) {
		int len = row_len(&rng);
		m->rowptr[r] = m->nnz;
		if (m->nnz + len > cap) {
			int *p = realloc(m->col, (size_t)(cap *= 2) * sizeof(int));
			if (!p)
				return -1;
			m->col = p;
		}
		for (int k = 0; k < len; k++) {
			int c = wl_rng_below(&rng, 2)
			        ? r + (int)wl_rng_below(&rng, 2 * BAND + 1) - BAND
			        : (int)wl_rng_below(&rng, (uint32_t)m->n);
			m->col[m->nnz + k] = (c % m->n + m->n) % m->n;
		}
		qsort(&m->col[m->nnz], (size_t)len, sizeof(int), cmp_int);
		m->nnz += len;
	}
	m->rowptr[m->n] = m->nnz;
	m->val = malloc((size_t)(m->nnz ? m->nnz : 1) * sizeof(float));
	m->want = malloc((size_t)m->n * sizeof(double));
	m->mag = malloc((size_t)m->n * sizeof(double));
	m->bound = malloc((size_t)m->n * sizeof(double));
	if (!m->val || !m->want || !m->mag || !m->bound)
		return -1;
	for (int e = 0; e < m->nnz; e++)
		m->val[e] = wl_rng_f32(&rng, -1.0f, 1.0f);
	for (int i = 0; i < m->n; i++)
		m->x[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
	return 0;
}

static void reference(Csr *m)
{
	for (int r = 0; r < m->n; r++) {
		double s = 0, a = 0;
		for (int e = m->rowptr[r]; e < m->rowptr[r + 1]; e++) {
			double p = (double)m->val[e] * m->x[m->col[e]];
			s += p;
			a += fabs(p);
		}
		m->want[r] = s;
		m->mag[r] = a;
	}
}

/* check y against the reference; the bound of row r is (h + 2) * u * mag[r] with the
 * summation height h of the kernel's order, folded into bound[] for one wl_check_f32 */
static int check(const Csr *m, const char *what, const float *y, int vector,
                 char *msg, size_t msgn)
{
	for (int r = 0; r < m->n; r++) {
		int len = m->rowptr[r + 1] - m->rowptr[r];
		int h = vector ? (len + WARP - 1) / WARP + 6 : len + 1;
		m->bound[r] = (h + 2) * m->mag[r];
	}
	return wl_check_f32(what, y, m->want, m->bound, (size_t)m->n, 0, 0.0, WL_ULP_F32, msg,
	                    msgn);
}

int wl_spmv_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 1024, 65536, 262144 };
	Csr m = { .n = sizes[args->size] };
	WlGpu g = { 0 };
	CUdeviceptr d_rowptr = 0, d_col = 0, d_val = 0, d_x = 0, d_y = 0;
	CUfunction fs, fv;
	float *y = malloc((size_t)m.n * sizeof(float));
	int rc;

	if (!y || make_matrix(&m, args->seed)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	reference(&m);
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fs, g.mod, "spmv_csr_scalar"));
	CHECK_CU(cuModuleGetFunction(&fv, g.mod, "spmv_csr_vector"));
	CHECK_CU(cuMemAlloc(&d_rowptr, (size_t)(m.n + 1) * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d_col, (size_t)(m.nnz ? m.nnz : 1) * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d_val, (size_t)(m.nnz ? m.nnz : 1) * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_x, (size_t)m.n * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_y, (size_t)m.n * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_rowptr, m.rowptr, (size_t)(m.n + 1) * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d_col, m.col, (size_t)m.nnz * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d_val, m.val, (size_t)m.nnz * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_x, m.x, (size_t)m.n * sizeof(float)));
	void *params[] = { &m.n, &d_rowptr, &d_col, &d_val, &d_x, &d_y };

	CHECK_CU(cuMemsetD32(d_y, 0x7fc00000u, (size_t)m.n));  /* NaN: unwritten rows fail */
	CHECK_CU(cuLaunchKernel(fs, wl_cdiv((size_t)m.n, BLOCK), 1, 1, BLOCK, 1, 1, 0, NULL,
	                        params, NULL));
	CHECK_CU(cuMemcpyDtoH(y, d_y, (size_t)m.n * sizeof(float)));
	if ((rc = check(&m, "y_scalar", y, 0, msg, msgn)))
		goto out;

	CHECK_CU(cuMemsetD32(d_y, 0x7fc00000u, (size_t)m.n));
	CHECK_CU(cuLaunchKernel(fv, wl_cdiv((size_t)m.n * WARP, BLOCK), 1, 1, BLOCK, 1, 1, 0,
	                        NULL, params, NULL));
	CHECK_CU(cuMemcpyDtoH(y, d_y, (size_t)m.n * sizeof(float)));
	if ((rc = check(&m, "y_vector", y, 1, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "%d rows, %d nonzeros; scalar %u blocks, vector %u blocks of %d",
	         m.n, m.nnz, wl_cdiv((size_t)m.n, BLOCK), wl_cdiv((size_t)m.n * WARP, BLOCK),
	         BLOCK);
out:
	wl_free(&d_rowptr);
	wl_free(&d_col);
	wl_free(&d_val);
	wl_free(&d_x);
	wl_free(&d_y);
	wl_close(&g);
	free(y);
	free(m.rowptr);
	free(m.col);
	free(m.val);
	free(m.x);
	free(m.want);
	free(m.mag);
	free(m.bound);
	return rc;
}
