/*
 * kmeans.c -- host side of kmeans (see kmeans.cu): Lloyd's k-means on
 * random clustered points, iterated by the host until no point changes
 * cluster or an iteration limit is reached, with every iteration's
 * assignment, move count and cluster sums checked exactly.
 *
 * Data: k true centres with whole-number features in [40, 215]; each
 * point picks one and adds uniform noise in [-40, 40] per feature, clamped
 * to [0, 255] (clusters overlap, so it takes several iterations to
 * settle).  The first k points are the initial centres, as in Rodinia.
 * After each iteration the host sets each centre to its cluster's mean
 * rounded to a multiple of 1/2 (an empty cluster keeps its centre).
 *
 * Sizes: 1,024 points x 8 features, at most 4 iterations (small);
 * 32,768 x 16, at most 10 (default); 131,072 x 16, at most 10 (large);
 * k = 5.  Blocks of 128 threads, one point each: 8, 256 and 1,024
 * blocks, two launches per iteration.
 *
 * Why exact.  Features are integers in [0, 255] and centres multiples of
 * 1/2 in the same range, so each difference is a multiple of 1/2 below
 * 256 in magnitude, its square a multiple of 1/4 below 2^16, and every
 * partial sum of at most 64 squares a multiple of 1/4 below 2^22: all
 * exactly representable in float (24-bit significand), so the GPU's
 * distances are exact whatever the order and however nvcc fuses the
 * multiply-adds, and equal the reference's.  With ties going to the
 * lowest cluster index on both sides the assignment is unique; the sums
 * are integer atomics.  So the check is exact equality.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 128, K = 5, MAXF = 64, MAXC = 1024 };  /* MAXC: km_centres' length */

typedef struct Km {
	int n, nf, k, max_iter;  /* points, features, clusters, iteration limit */
	float *feat;             /* nf x n, feature-major */
	float *centres;          /* k x nf */
	int *member, *want;      /* GPU's and reference assignment */
	unsigned *sums, *wsums;  /* k*nf feature sums then k counts: GPU's, reference */
} Km;

static int make_points(Km *m, uint64_t seed)
{
	WlRng rng;
	int truth[K * MAXF];

	m->feat = malloc((size_t)m->n * m->nf * sizeof(float));
	m->centres = malloc((size_t)m->k * m->nf * sizeof(float));
	m->member = malloc((size_t)m->n * sizeof(int));
	m->want = malloc((size_t)m->n * sizeof(int));
	m->sums = malloc((size_t)m->k * (m->nf + 1) * sizeof(unsigned));
	m->wsums = malloc((size_t)m->k * (m->nf + 1) * sizeof(unsigned));
	if (!m->feat || !m->centres || !m->member || !m->want || !m->sums || !m->wsums)
		return -1;
	wl_rng_init(&rng, seed, 1);
	for (int i = 0; i < m->k * m->nf; i++)
		truth[i] = 40 + (int)wl_rng_below(&rng, 176);
	for (int p = 0; p < m->n; p++) {
		int c = (int)wl_rng_below(&rng, (uint32_t)m->k);
		for (int f = 0; f < m->nf; f++) {
			int v = truth[c * m->nf + f] + (int)wl_rng_below(&rng, 81) - 40;
			m->feat[(size_t)f * m->n + p] = (float)(v < 0 ? 0 : v > 255 ? 255 : v);
		}
	}
	for (int c = 0; c < m->k; c++)
		for (int f = 0; f < m->nf; f++)
			m->centres[c * m->nf + f] = m->feat[(size_t)f * m->n + c];
	for (int p = 0; p < m->n; p++)
		m->want[p] = -1;
	return 0;
}

/* reference assignment into want (exact, see above); returns how many moved */
static unsigned assign(Km *m)
{
	unsigned moved = 0;

	for (int p = 0; p < m->n; p++) {
		int best = 0;
		double bestd = 0;
		for (int c = 0; c < m->k; c++) {
			const float *cf = &m->centres[c * m->nf];
			double d = 0;
			for (int f = 0; f < m->nf; f++) {
				double t = (double)m->feat[(size_t)f * m->n + p] - cf[f];
				d += t * t;
			}
			if (c == 0 || d < bestd) {
				bestd = d;
				best = c;
			}
		}
		moved += m->want[p] != best;
		m->want[p] = best;
	}
	return moved;
}

/* reference sums of the (checked) assignment, then the new centres */
static void accumulate(Km *m)
{
	int nf = m->nf, k = m->k;

	for (int i = 0; i < k * (nf + 1); i++)
		m->wsums[i] = 0;
	for (int p = 0; p < m->n; p++) {
		int c = m->want[p];
		for (int f = 0; f < nf; f++)
			m->wsums[c * nf + f] += (unsigned)m->feat[(size_t)f * m->n + p];
		m->wsums[k * nf + c]++;
	}
}

/* each centre = its cluster's mean, rounded to a multiple of 1/2 */
static void new_centres(Km *m)
{
	for (int c = 0; c < m->k; c++) {
		uint64_t cnt = m->wsums[m->k * m->nf + c];
		if (!cnt)
			continue;
		for (int f = 0; f < m->nf; f++) {
			uint64_t s = m->wsums[c * m->nf + f];
			m->centres[c * m->nf + f] = (float)((4 * s + cnt) / (2 * cnt)) * 0.5f;
		}
	}
}

typedef struct Dev {
	CUdeviceptr feat, member, changed, sums, centres;
	CUfunction assign, accum;
} Dev;

/* one iteration on the GPU, checked; *moved = points that changed cluster */
static int iterate(Km *m, Dev *d, int it, unsigned *moved, char *msg, size_t msgn)
{
	int nsums = m->k * (m->nf + 1), rc = 0;
	unsigned grid = wl_cdiv((size_t)m->n, BLOCK), want_moved;
	void *pa[] = { &m->n, &m->nf, &m->k, &d->feat, &d->member, &d->changed };
	void *pc[] = { &m->n, &m->nf, &m->k, &d->feat, &d->member, &d->sums };
	char what[32];

	CHECK_CU(cuMemcpyHtoD(d->centres, m->centres, (size_t)m->k * m->nf * sizeof(float)));
	CHECK_CU(cuMemsetD32(d->changed, 0, 1));
	CHECK_CU(cuLaunchKernel(d->assign, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pa, NULL));
	CHECK_CU(cuMemcpyDtoH(m->member, d->member, (size_t)m->n * sizeof(int)));
	CHECK_CU(cuMemcpyDtoH(moved, d->changed, sizeof *moved));
	want_moved = assign(m);
	snprintf(what, sizeof what, "member(iteration %d)", it);
	if ((rc = wl_check_i32(what, m->member, m->want, (size_t)m->n, msg, msgn)))
		return rc;
	snprintf(what, sizeof what, "moved(iteration %d)", it);
	if ((rc = wl_check_u32(what, moved, &want_moved, 1, msg, msgn)))
		return rc;

	CHECK_CU(cuMemsetD32(d->sums, 0, (size_t)nsums));
	CHECK_CU(cuLaunchKernel(d->accum, grid, 1, 1, BLOCK, 1, 1,
	                        (unsigned)(nsums * sizeof(unsigned)), NULL, pc, NULL));
	CHECK_CU(cuMemcpyDtoH(m->sums, d->sums, (size_t)nsums * sizeof(unsigned)));
	accumulate(m);
	snprintf(what, sizeof what, "sums(iteration %d)", it);
	if ((rc = wl_check_u32(what, m->sums, m->wsums, (size_t)nsums, msg, msgn)))
		return rc;
	new_centres(m);
out:
	return rc;
}

int wl_kmeans_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int npts[] = { 1024, 32768, 131072 }, nfs[] = { 8, 16, 16 };
	static const int iters[] = { 4, 10, 10 };
	Km m = { .n = npts[args->size], .nf = nfs[args->size], .k = K,
	         .max_iter = iters[args->size] };
	Dev d = { 0 };
	WlGpu g = { 0 };
	size_t cbytes;
	unsigned moved = 1;
	int it = 0, rc;

	if (make_points(&m, args->seed)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&d.assign, g.mod, "km_assign"));
	CHECK_CU(cuModuleGetFunction(&d.accum, g.mod, "km_accumulate"));
	CHECK_CU(cuModuleGetGlobal(&d.centres, &cbytes, g.mod, "km_centres"));
	if (cbytes < (size_t)m.k * m.nf * sizeof(float) || m.nf > MAXF || m.k * m.nf > MAXC) {
		snprintf(msg, msgn, "km_centres holds %zu bytes, %d x %d centres need %zu",
		         cbytes, m.k, m.nf, (size_t)m.k * m.nf * sizeof(float));
		rc = 2;
		goto out;
	}
	CHECK_CU(cuMemAlloc(&d.feat, (size_t)m.n * m.nf * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d.member, (size_t)m.n * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d.changed, sizeof(unsigned)));
	CHECK_CU(cuMemAlloc(&d.sums, (size_t)m.k * (m.nf + 1) * sizeof(unsigned)));
	CHECK_CU(cuMemcpyHtoD(d.feat, m.feat, (size_t)m.n * m.nf * sizeof(float)));
	CHECK_CU(cuMemsetD32(d.member, 0xffffffffu, (size_t)m.n));  /* no cluster yet */
	for (it = 0; it < m.max_iter && moved; it++)
		if ((rc = iterate(&m, &d, it, &moved, msg, msgn)))
			goto out;
	snprintf(msg, msgn, "%d points x %d features, k=%d: %d iterations (%s), %u blocks of %d",
	         m.n, m.nf, m.k, it, moved ? "limit" : "converged", wl_cdiv((size_t)m.n, BLOCK),
	         BLOCK);
out:
	wl_free(&d.feat);
	wl_free(&d.member);
	wl_free(&d.changed);
	wl_free(&d.sums);
	wl_close(&g);
	free(m.feat);
	free(m.centres);
	free(m.member);
	free(m.want);
	free(m.sums);
	free(m.wsums);
	return rc;
}
