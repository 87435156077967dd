/*
 * tpacf.c -- host side of tpacf (see tpacf.cu): angular pair counts of a
 * clustered "data" set D and a uniform "random" set R, in three launches
 * (D x D and R x R each pair once, D x R), as the TPACF estimator needs.
 *
 * Sizes (points per set, B tile): 100, 100 (small: one block per
 * launch); 1,536, 4 (default); 4,096, 8 (large).  Blocks of 128 threads
 * x 4 points of A: the D x R grid is 1x1, 3x384 = 1,152 and 8x512 = 4,096
 * blocks (auto launches the same, about half of them leaving at once).
 * Every pair costs ~70 thread instructions (the binary search dominates),
 * hence the small sets and the narrow B tiles.  The 21 bin edges are
 * log-spaced angles from 0.2 to 100 degrees, 22 slots with the under- and
 * overflow.  D: 16 clusters of Gaussian spread ~3 degrees around random
 * centres; R: uniform.
 *
 * Checking.  Counts are exact integers, but whether a pair lands on one
 * side of an edge or the other depends on its dot product in float: the
 * GPU's is within 3u(|x1 x2| + |y1 y2| + |z1 z2|) <= 3u(1 + 2u) of the
 * exact one (three roundings, or two with fma; unit vectors, each
 * normalised to within u).  The reference computes the exact dot in double
 * and calls a pair ambiguous at an edge when it is within 4u of it (edges
 * are ~1e-6 apart or more, so at most one edge).  Then the GPU's
 * histogram is right exactly when its cumulative counts differ from the
 * exact ones, at each edge, by no more than the ambiguous pairs there
 * allow in each direction, and the totals agree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { NEDGE = 21, NSLOT = NEDGE + 1, PPT = 4, BLOCK = 128, NCLUSTER = 16 };

typedef struct Hist {
	uint32_t want[NSLOT];   /* exact counts */
	uint32_t down[NSLOT];   /* ambiguous at edge k, exactly in slot k (GPU may say k+1) */
	uint32_t up[NSLOT];     /* ambiguous at edge k, exactly in slot k+1 (GPU may say k) */
} Hist;

static double gauss(WlRng *r)
{
	double u1 = ((wl_rng_u64(r) >> 11) + 1) * 0x1p-53, u2 = (wl_rng_u64(r) >> 11) * 0x1p-53;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* n unit vectors: around NCLUSTER centres (spread sigma radians) or uniform */
static void make_points(float *p, int n, int clustered, WlRng *r)
{
	double c[NCLUSTER][3];

	for (int k = 0; k < NCLUSTER; k++)
		for (int d = 0; d < 3; d++)
			c[k][d] = gauss(r);
	for (int i = 0; i < n; i++) {
		double v[3], len = 0;
		int k = (int)wl_rng_below(r, NCLUSTER);
		for (int d = 0; d < 3; d++) {
			v[d] = clustered ? c[k][d] / sqrt(c[k][0] * c[k][0] + c[k][1] * c[k][1] +
			                                  c[k][2] * c[k][2]) + 0.05 * gauss(r)
			                 : gauss(r);
			len += v[d] * v[d];
		}
		for (int d = 0; d < 3; d++)
			p[d * n + i] = (float)(v[d] / sqrt(len));
	}
}

static void ref_hist(const float *a, int na, const float *b, int nb, int autocorr,
                     const float *edge, Hist *h)
{
	const double eps = 4 * WL_ULP_F32;

	for (int k = 0; k < NSLOT; k++)
		h->want[k] = h->down[k] = h->up[k] = 0;
	for (int i = 0; i < na; i++)
		for (int j = autocorr ? i + 1 : 0; j < nb; j++) {
			double dot = (double)a[i] * b[j] + (double)a[na + i] * b[nb + j] +
			             (double)a[2 * na + i] * b[2 * nb + j];
			int s = 0;
			while (s < NEDGE && edge[s] >= dot)
				s++;
			h->want[s]++;
			if (s < NEDGE && dot - edge[s] <= eps)
				h->down[s]++;      /* just above edge s: GPU may go past it */
			if (s > 0 && edge[s - 1] - dot <= eps)
				h->up[s - 1]++;    /* at or just below edge s-1 */
		}
}

static int check_hist(const char *what, const uint32_t *got, const Hist *h, char *msg,
                      size_t msgn)
{
	long long cg = 0, cw = 0;

	for (int k = 0; k < NSLOT; k++) {
		cg += got[k];
		cw += h->want[k];
		long long diff = cg - cw;  /* pairs the GPU put at or below slot k, net */
		if (k == NSLOT - 1 ? diff != 0 : diff < -(long long)h->down[k] || diff > h->up[k]) {
			snprintf(msg, msgn, "%s[%d]: got %u, expected %u (cumulative %+lld beyond the "
			         "%u/%u ambiguous pairs at its edge)", what, k, got[k], h->want[k], diff,
			         h->down[k], h->up[k]);
			return 1;
		}
	}
	return 0;
}

int wl_tpacf_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[][2] = { { 100, 100 }, { 1536, 4 }, { 4096, 8 } };
	static const char *const names[3] = { "DD", "DR", "RR" };
	int n = sizes[args->size][0], tb = sizes[args->size][1];
	float edge[NEDGE], *pts = malloc((size_t)6 * n * sizeof(float));  /* D then R, SoA */
	Hist *h = malloc(3 * sizeof(Hist));
	uint32_t got[3][NSLOT];
	WlGpu g = { 0 };
	CUdeviceptr d_p = 0, d_h = 0, d_edge;
	size_t edge_bytes;
	CUfunction f;
	WlRng rng;
	int rc;
	unsigned gx = wl_cdiv((size_t)n, BLOCK * PPT), gy = wl_cdiv((size_t)n, (size_t)tb);

	if (!pts || !h) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (int k = 0; k < NEDGE; k++)  /* 0.2 .. 100 degrees, log-spaced */
		edge[k] = (float)cos(0.2 * pow(500.0, k / (NEDGE - 1.0)) * M_PI / 180);
	wl_rng_init(&rng, args->seed, 1);
	make_points(pts, n, 1, &rng);
	make_points(pts + 3 * n, n, 0, &rng);
	for (int l = 0; l < 3; l++)
		ref_hist(pts + (l == 2 ? 3 * n : 0), n, pts + (l ? 3 * n : 0), n, l != 1, edge, &h[l]);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "tpacf_hist"));
	CHECK_CU(cuModuleGetGlobal(&d_edge, &edge_bytes, g.mod, "tpacf_edge"));
	if (edge_bytes != sizeof edge) {
		snprintf(msg, msgn, "tpacf_edge is %zu bytes, expected %zu", edge_bytes, sizeof edge);
		rc = 2;
		goto out;
	}
	CHECK_CU(cuMemcpyHtoD(d_edge, edge, sizeof edge));
	CHECK_CU(cuMemAlloc(&d_p, (size_t)6 * n * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_h, sizeof got));
	CHECK_CU(cuMemcpyHtoD(d_p, pts, (size_t)6 * n * sizeof(float)));
	CHECK_CU(cuMemsetD32(d_h, 0, 3 * NSLOT));
	for (int l = 0; l < 3; l++) {
		CUdeviceptr a = d_p + (l == 2 ? 3 * n : 0) * sizeof(float);
		CUdeviceptr b = d_p + (l ? 3 * n : 0) * sizeof(float);
		CUdeviceptr ay = a + n * sizeof(float), az = a + 2 * n * sizeof(float);
		CUdeviceptr by = b + n * sizeof(float), bz = b + 2 * n * sizeof(float);
		CUdeviceptr hist = d_h + l * NSLOT * sizeof(uint32_t);
		int autocorr = l != 1;
		void *params[] = { &a, &ay, &az, &n, &b, &by, &bz, &n, &tb, &autocorr, &hist };
		CHECK_CU(cuLaunchKernel(f, gx, gy, 1, BLOCK, 1, 1, BLOCK / 32 * NSLOT * 4, NULL,
		                        params, NULL));
	}
	CHECK_CU(cuMemcpyDtoH(got, d_h, sizeof got));

	rc = 0;
	for (int l = 0; l < 3 && !rc; l++)
		rc = check_hist(names[l], got[l], &h[l], msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%d points per set, %d slots, 3 launches of %ux%u blocks of %d; "
		         "DD[1] %u, RR[1] %u", n, NSLOT, gx, gy, BLOCK, got[0][1], got[2][1]);
out:
	wl_free(&d_p);
	wl_free(&d_h);
	wl_close(&g);
	free(pts);
	free(h);
	return rc;
}
