/*
 * sgemm.c -- host side of sgemm (see sgemm.cu): C = alpha*A*B + beta*C,
 * row-major, with C's rows padded (ldc = N + 5) as a BLAS caller may.
 *
 * Sizes (M x N x K): 100x100x60 (small), 1000x1000x100 (default),
 * 2000x2000x150 (large); none a multiple of the 32x32x16 tile, so every
 * bound check runs.  Blocks of 64 threads on a grid of ceil(N/32) x
 * ceil(M/32): 4x4, 32x32 and 63x63 blocks.
 *
 * Tolerance.  The reference is in double: exact to ~1e-16 relative.  The
 * GPU accumulates K products in float with fused multiply-adds, in k
 * order (the zero padding adds exact zeros): |acc - exact| <= K*u*S with
 * S = sum_k |a_ik*b_kj| (Higham, section 3.1; with separate multiply and
 * add it would be (K+1)*u*S).  alpha*acc and the update with beta*c add
 * at most three more roundings, so each element is checked against
 * (K + 4) * u * (|alpha|*S + |beta*c|).  The padding columns of C are
 * compared exactly: the kernel must not touch them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { TILE_M = 32, TILE_N = 32, THREADS = 64, LDC_PAD = 5 };

typedef struct Gemm {
	int M, N, K, lda, ldb, ldc;
	float alpha, beta;
	float *A, *B, *C;    /* inputs, C before the update */
	double *want, *mag;  /* M x ldc: expected C and its error scale */
} Gemm;

static void make_inputs(Gemm *p, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (int i = 0; i < p->M * p->lda; i++)
		p->A[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
	for (int i = 0; i < p->K * p->ldb; i++)
		p->B[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
	for (int i = 0; i < p->M * p->ldc; i++)
		p->C[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
}

static void reference(Gemm *p)
{
	for (int i = 0; i < p->M; i++) {
		double *w = &p->want[i * p->ldc], *m = &p->mag[i * p->ldc];
		for (int j = 0; j < p->ldc; j++)
			w[j] = m[j] = 0;
		for (int k = 0; k < p->K; k++) {
			double a = p->A[i * p->lda + k];
			const float *b = &p->B[k * p->ldb];
			for (int j = 0; j < p->N; j++) {
				w[j] += a * b[j];
				m[j] += fabs(a * b[j]);
			}
		}
		for (int j = 0; j < p->ldc; j++) {
			double c = p->C[i * p->ldc + j];
			if (j >= p->N) {  /* padding: must come back unchanged */
				w[j] = c;
				continue;
			}
			w[j] = p->alpha * w[j] + p->beta * c;
			m[j] = fabs((double)p->alpha) * m[j] + fabs(p->beta * c);
		}
	}
}

int wl_sgemm_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 100, 100, 60 }, { 1000, 1000, 100 }, { 2000, 2000, 150 } };
	Gemm p = { .M = dims[args->size][0], .N = dims[args->size][1], .K = dims[args->size][2],
	           .alpha = 0.75f, .beta = -1.25f };
	p.lda = p.K;
	p.ldb = p.N;
	p.ldc = p.N + LDC_PAD;
	size_t na = (size_t)p.M * p.lda, nb = (size_t)p.K * p.ldb, nc = (size_t)p.M * p.ldc;
	float *out = malloc(nc * sizeof(float));
	WlGpu g = { 0 };
	CUdeviceptr d_a = 0, d_b = 0, d_c = 0;
	CUfunction f;
	int rc;

	p.A = malloc(na * sizeof(float));
	p.B = malloc(nb * sizeof(float));
	p.C = malloc(nc * sizeof(float));
	p.want = malloc(nc * sizeof(double));
	p.mag = malloc(nc * sizeof(double));
	if (!out || !p.A || !p.B || !p.C || !p.want || !p.mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_inputs(&p, args->seed);
	reference(&p);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "sgemm_nn"));
	CHECK_CU(cuMemAlloc(&d_a, na * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_b, nb * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_c, nc * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_a, p.A, na * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_b, p.B, nb * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_c, p.C, nc * sizeof(float)));
	void *params[] = { &p.M, &p.N, &p.K, &p.alpha, &d_a, &p.lda, &d_b, &p.ldb,
	                   &p.beta, &d_c, &p.ldc };
	unsigned gx = wl_cdiv((size_t)p.N, TILE_N), gy = wl_cdiv((size_t)p.M, TILE_M);
	CHECK_CU(cuLaunchKernel(f, gx, gy, 1, THREADS, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuMemcpyDtoH(out, d_c, nc * sizeof(float)));

	rc = wl_check_f32("C", out, p.want, p.mag, nc, (size_t)p.ldc, 0.0,
	                  (p.K + 4) * WL_ULP_F32, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%dx%dx%d, %ux%u blocks of %d", p.M, p.N, p.K, gx, gy,
		         THREADS);
out:
	wl_free(&d_a);
	wl_free(&d_b);
	wl_free(&d_c);
	wl_close(&g);
	free(out);
	free(p.A);
	free(p.B);
	free(p.C);
	free(p.want);
	free(p.mag);
	return rc;
}
