/*
 * mriq.c -- host side of mriq (see mriq.cu): |phi|^2 on the GPU, then the
 * k-space samples copied into constant memory chunk by chunk (as
 * cudaMemcpyToSymbol would: cuModuleGetGlobal + cuMemcpyHtoD), one mriq_q
 * launch per chunk accumulating into Qr, Qi.
 *
 * Sizes (voxels, samples, samples per chunk): 1,000, 40, 16 (small:
 * three launches, the last one short); 524,000, 32, 16 (default);
 * 1,700,000, 32, 16 (large).  mriq_q runs blocks of 128 threads, 4 voxels
 * each: 2, 1,024 and 3,321 blocks per launch; the voxel counts are not
 * multiples of 512.  The cost is ~55 thread instructions per voxel and
 * sample, so the sample counts are far below Parboil's thousands.
 *
 * Inputs: voxel coordinates uniform in [-32, 32) (a 64^3 field of view in
 * voxel units), k-space coordinates in [-0.5, 0.5) cycles per voxel, phi's
 * real and imaginary parts in [-1, 1].
 *
 * Tolerance.  The reference sums in double with the exact |phi|^2 and
 * t = k.x (exact to ~1e-16).  For sample k, with w = |phi|^2 and
 * A = |kx*x| + |ky*y| + |kz*z|, the GPU's t has |error| <= 3u*A (three
 * products summed: Higham's gamma_3), so sin and cos of 2*pi*t move by
 * at most 2*pi*3u*A; sincospif itself adds 1 ulp (<= 2u for a value of
 * magnitude <= 1, CUDA Math API guide), |phi|^2 in float 2 roundings
 * (relative 2u).  Summing the K products w*cos in float adds at most
 * K*u*sum(w), and adding each chunk's sum into Qr one rounding per chunk.
 * So each voxel is checked against
 *   u * sum_k w_k * (6*pi*A_k + 4 + K + chunks),
 * the A term dominating (|t| reaches 48: ~5e-5 per unit weight), about
 * 1e-3 against |Q| ~ 4: a wrong sample, coordinate or sign is off by ~1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 128, VPT = 4, MRIQ_CHUNK = 1024 };

typedef struct Mri {
	int numx, numk, chunk;
	float *x, *y, *z;                     /* voxel coordinates */
	float *kx, *ky, *kz, *phir, *phii;    /* samples */
	double *wr, *wi, *mag;                /* reference Qr, Qi and their error scale */
} Mri;

static void make_inputs(Mri *m, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (int v = 0; v < m->numx; v++) {
		m->x[v] = wl_rng_f32(&rng, -32.0f, 32.0f);
		m->y[v] = wl_rng_f32(&rng, -32.0f, 32.0f);
		m->z[v] = wl_rng_f32(&rng, -32.0f, 32.0f);
	}
	for (int k = 0; k < m->numk; k++) {
		m->kx[k] = wl_rng_f32(&rng, -0.5f, 0.5f);
		m->ky[k] = wl_rng_f32(&rng, -0.5f, 0.5f);
		m->kz[k] = wl_rng_f32(&rng, -0.5f, 0.5f);
		m->phir[k] = wl_rng_f32(&rng, -1.0f, 1.0f);
		m->phii[k] = wl_rng_f32(&rng, -1.0f, 1.0f);
	}
}

static void reference(Mri *m)
{
	int chunks = (m->numk + m->chunk - 1) / m->chunk;

	for (int v = 0; v < m->numx; v++) {
		double qr = 0, qi = 0, mag = 0;
		for (int k = 0; k < m->numk; k++) {
			double w = (double)m->phir[k] * m->phir[k] + (double)m->phii[k] * m->phii[k];
			double a = (double)m->kx[k] * m->x[v], b = (double)m->ky[k] * m->y[v];
			double c = (double)m->kz[k] * m->z[v], arg = 2 * M_PI * (a + b + c);
			qr += w * cos(arg);
			qi += w * sin(arg);
			mag += w * (6 * M_PI * (fabs(a) + fabs(b) + fabs(c)) + 4 + m->numk + chunks);
		}
		m->wr[v] = qr;
		m->wi[v] = qi;
		m->mag[v] = mag;
	}
}

/* phimag on the GPU, then one mriq_q launch per chunk of samples */
static int run_gpu(const WlGpu *g, const Mri *m, CUdeviceptr *d, float *outr, float *outi,
                   char *msg, size_t msgn)
{
	CUfunction fphi, fq;
	CUdeviceptr d_ck;
	size_t ck_bytes, kb = (size_t)m->numk * sizeof(float), xb = (size_t)m->numx * sizeof(float);
	float *phimag = malloc(kb), (*ck)[4] = malloc((size_t)m->chunk * sizeof *ck);
	int rc = 0, numk = m->numk, numx = m->numx;
	unsigned grid = wl_cdiv((size_t)m->numx, BLOCK * VPT);

	if (!phimag || !ck) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	CHECK_CU(cuModuleGetFunction(&fphi, g->mod, "mriq_phimag"));
	CHECK_CU(cuModuleGetFunction(&fq, g->mod, "mriq_q"));
	CHECK_CU(cuModuleGetGlobal(&d_ck, &ck_bytes, g->mod, "mriq_k"));
	if (ck_bytes < (size_t)m->chunk * sizeof *ck) {
		snprintf(msg, msgn, "mriq_k is %zu bytes, need %zu", ck_bytes,
		         (size_t)m->chunk * sizeof *ck);
		rc = 2;
		goto out;
	}
	CHECK_CU(cuMemcpyHtoD(d[0], m->x, xb));
	CHECK_CU(cuMemcpyHtoD(d[1], m->y, xb));
	CHECK_CU(cuMemcpyHtoD(d[2], m->z, xb));
	CHECK_CU(cuMemsetD32(d[3], 0, (size_t)m->numx));  /* Qr */
	CHECK_CU(cuMemsetD32(d[4], 0, (size_t)m->numx));  /* Qi */
	CHECK_CU(cuMemcpyHtoD(d[5], m->phir, kb));
	CHECK_CU(cuMemcpyHtoD(d[6], m->phii, kb));
	void *pp[] = { &d[5], &d[6], &d[7], &numk };
	CHECK_CU(cuLaunchKernel(fphi, wl_cdiv((size_t)numk, 256), 1, 1, 256, 1, 1, 0, NULL, pp,
	                        NULL));
	CHECK_CU(cuMemcpyDtoH(phimag, d[7], kb));
	for (int k0 = 0; k0 < numk; k0 += m->chunk) {
		int n = numk - k0 < m->chunk ? numk - k0 : m->chunk;
		for (int k = 0; k < n; k++) {
			ck[k][0] = m->kx[k0 + k];
			ck[k][1] = m->ky[k0 + k];
			ck[k][2] = m->kz[k0 + k];
			ck[k][3] = phimag[k0 + k];
		}
		CHECK_CU(cuMemcpyHtoD(d_ck, ck, (size_t)n * sizeof *ck));
		void *pq[] = { &numx, &n, &d[0], &d[1], &d[2], &d[3], &d[4] };
		CHECK_CU(cuLaunchKernel(fq, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pq, NULL));
	}
	CHECK_CU(cuMemcpyDtoH(outr, d[3], xb));
	CHECK_CU(cuMemcpyDtoH(outi, d[4], xb));
out:
	free(phimag);
	free(ck);
	return rc;
}

int wl_mriq_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 1000, 40, 16 }, { 524000, 32, 16 }, { 1700000, 32, 16 } };
	Mri m = { .numx = dims[args->size][0], .numk = dims[args->size][1],
	          .chunk = dims[args->size][2] };
	size_t xb = (size_t)m.numx * sizeof(float), kb = (size_t)m.numk * sizeof(float);
	size_t xd = (size_t)m.numx * sizeof(double);
	float *outr = malloc(xb), *outi = malloc(xb);
	WlGpu g = { 0 };
	CUdeviceptr d[8] = { 0 };  /* x, y, z, Qr, Qi, phiR, phiI, |phi|^2 */
	int rc;

	m.x = malloc(xb);
	m.y = malloc(xb);
	m.z = malloc(xb);
	m.kx = malloc(kb);
	m.ky = malloc(kb);
	m.kz = malloc(kb);
	m.phir = malloc(kb);
	m.phii = malloc(kb);
	m.wr = malloc(xd);
	m.wi = malloc(xd);
	m.mag = malloc(xd);
	if (!outr || !outi || !m.x || !m.y || !m.z || !m.kx || !m.ky || !m.kz || !m.phir ||
	    !m.phii || !m.wr || !m.wi || !m.mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_inputs(&m, args->seed);
	reference(&m);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	for (int i = 0; i < 8; i++)
		CHECK_CU(cuMemAlloc(&d[i], i < 5 ? xb : kb));
	if ((rc = run_gpu(&g, &m, d, outr, outi, msg, msgn)))
		goto out;

	rc = wl_check_f32("Qr", outr, m.wr, m.mag, (size_t)m.numx, 0, 0.0, WL_ULP_F32, msg, msgn);
	if (!rc)
		rc = wl_check_f32("Qi", outi, m.wi, m.mag, (size_t)m.numx, 0, 0.0, WL_ULP_F32, msg,
		                  msgn);
	if (!rc)
		snprintf(msg, msgn, "%d voxels x %d samples, %d per launch, %u blocks of %d",
		         m.numx, m.numk, m.chunk, wl_cdiv((size_t)m.numx, BLOCK * VPT), BLOCK);
out:
	for (int i = 0; i < 8; i++)
		wl_free(&d[i]);
	wl_close(&g);
	free(outr);
	free(outi);
	free(m.x);
	free(m.y);
	free(m.z);
	free(m.kx);
	free(m.ky);
	free(m.kz);
	free(m.phir);
	free(m.phii);
	free(m.wr);
	free(m.wi);
	free(m.mag);
	return rc;
}
