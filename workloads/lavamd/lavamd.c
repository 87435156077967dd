/*
 * lavamd.c -- host side of lavamd (see lavamd.cu): potentials and forces
 * of NP = 8 particles per unit box, cutoff radius 1, screening a2 = 2,
 * all in double.
 *
 * Sizes (boxes): 12x2x2 (small), 32x18x20 (default), 64x32x20 (large),
 * i.e. 384, 92,160 and 327,680 particles; blocks of 128 threads, 16
 * boxes each: 4 (each with a quarter of its threads idle: nbx is not a
 * multiple of 16), 720 and 2,560 blocks.  Particles are uniform inside their box,
 * charges uniform in [0.1, 1].
 *
 * Tolerance.  The reference is computed in long double (64-bit
 * significand, 2^11 times finer than double), so its own error is
 * negligible.  For one pair on the GPU, with u = 2^-53: the differences
 * dx, dy, dz round once and r^2 = dx^2 + dy^2 + dz^2 three times more,
 * so r^2 is within 5u relative; -a2*r^2 adds one rounding, so the
 * exponent is off by at most 6u * a2 * r^2 <= 12u absolutely (r^2 < 1);
 * exp is within 1 ulp (<= 2u relative; CUDA Math API guide) and q*exp
 * rounds once: w is within 15u relative.  The force term (2*a2)*w*dx
 * (2*a2 exact) adds three more roundings: 18u.  Accumulating N <= 27*8
 * terms adds at most N*u times the sum of their magnitudes (Higham 4.2).
 * So each output is checked against (27*8 + 18) * u * sum|terms|.  A
 * pair whose r^2 lies within 6u of the cutoff may fall on either side of
 * it on the GPU; its term's magnitude is added to the tolerance.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { NP = 8, BPB = 16, BLOCK = NP * BPB, NOUT = 4 };

typedef struct Md {
	int nbx, nby, nbz, n;       /* boxes per axis, particles */
	double a2, rc2;
	double *x, *y, *z, *q;      /* inputs */
	double *want[NOUT];         /* potential, force x, y, z */
	double *mag[NOUT];          /* their error scales */
} Md;

static void make_inputs(Md *m, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (int b = 0; b < m->nbx * m->nby * m->nbz; b++) {
		int bx = b % m->nbx, by = b / m->nbx % m->nby, bz = b / m->nbx / m->nby;
		for (int k = 0; k < NP; k++) {
			int i = b * NP + k;
			/* 53 random bits each, inside the box */
			m->x[i] = bx + (wl_rng_u64(&rng) >> 11) * 0x1p-53;
			m->y[i] = by + (wl_rng_u64(&rng) >> 11) * 0x1p-53;
			m->z[i] = bz + (wl_rng_u64(&rng) >> 11) * 0x1p-53;
			m->q[i] = 0.1 + 0.9 * ((wl_rng_u64(&rng) >> 11) * 0x1p-53);
		}
	}
}

/* all pairs of particle i with box (cx, cy, cz), into the sums s and magnitudes a */
static void ref_box(const Md *m, int i, int cx, int cy, int cz, long double s[NOUT],
                    double a[NOUT])
{
	const double rtol = (27 * NP + 18) * WL_ULP_F64;

	for (int k = 0; k < NP; k++) {
		int j = ((cz * m->nby + cy) * m->nbx + cx) * NP + k;
		long double d[3] = { (long double)m->x[i] - m->x[j], (long double)m->y[i] - m->y[j],
		                     (long double)m->z[i] - m->z[j] };
		long double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
		int near = fabsl(r2 - m->rc2) <= 6 * WL_ULP_F64 * m->rc2;
		if (r2 >= m->rc2 && !near)
			continue;
		long double w = m->q[j] * expl(-(long double)m->a2 * r2);
		long double t[NOUT] = { w, 2 * m->a2 * w * d[0], 2 * m->a2 * w * d[1],
		                        2 * m->a2 * w * d[2] };
		for (int c = 0; c < NOUT; c++) {
			if (r2 < m->rc2)
				s[c] += t[c];
			a[c] += (double)fabsl(t[c]) * (near ? 1 + 1 / rtol : 1);
		}
	}
}

static void reference(Md *m)
{
	for (int i = 0; i < m->n; i++) {
		int b = i / NP, bx = b % m->nbx, by = b / m->nbx % m->nby, bz = b / m->nbx / m->nby;
		long double s[NOUT] = { 0 };
		double a[NOUT] = { 0 };
		for (int dz = -1; dz <= 1; dz++)
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int cx = bx + dx, cy = by + dy, cz = bz + dz;
					if (cx >= 0 && cx < m->nbx && cy >= 0 && cy < m->nby && cz >= 0 &&
					    cz < m->nbz)
						ref_box(m, i, cx, cy, cz, s, a);
				}
		for (int c = 0; c < NOUT; c++) {
			m->want[c][i] = (double)s[c];
			m->mag[c][i] = a[c];
		}
	}
}

int wl_lavamd_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 12, 2, 2 }, { 32, 18, 20 }, { 64, 32, 20 } };
	static const char *const names[NOUT] = { "pot", "fx", "fy", "fz" };
	Md m = { .nbx = dims[args->size][0], .nby = dims[args->size][1],
	         .nbz = dims[args->size][2], .a2 = 2.0, .rc2 = 1.0 };
	m.n = m.nbx * m.nby * m.nbz * NP;
	size_t bytes = (size_t)m.n * sizeof(double);
	double *in[4], *out = malloc(bytes);
	WlGpu g = { 0 };
	CUdeviceptr d[4 + NOUT] = { 0 };  /* x, y, z, q, then the outputs */
	CUfunction f;
	int rc = 0, ok = out != NULL;
	unsigned grid = wl_cdiv((size_t)m.nbx, BPB) * m.nby * m.nbz;

	in[0] = m.x = malloc(bytes);
	in[1] = m.y = malloc(bytes);
	in[2] = m.z = malloc(bytes);
	in[3] = m.q = malloc(bytes);
	for (int c = 0; c < NOUT; c++) {
		m.want[c] = malloc(bytes);
		m.mag[c] = malloc(bytes);
		ok = ok && m.want[c] && m.mag[c];
	}
	if (!ok || !m.x || !m.y || !m.z || !m.q) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_inputs(&m, args->seed);
	reference(&m);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "lavamd_forces"));
	for (int i = 0; i < 4 + NOUT; i++)
		CHECK_CU(cuMemAlloc(&d[i], bytes));
	for (int i = 0; i < 4; i++)
		CHECK_CU(cuMemcpyHtoD(d[i], in[i], bytes));
	void *params[] = { &m.nbx, &m.nby, &m.nbz, &m.a2, &m.rc2, &d[0], &d[1], &d[2], &d[3],
	                   &d[4], &d[5], &d[6], &d[7] };
	CHECK_CU(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
	for (int c = 0; c < NOUT && !rc; c++) {
		CHECK_CU(cuMemcpyDtoH(out, d[4 + c], bytes));
		rc = wl_check_f64(names[c], out, m.want[c], m.mag[c], (size_t)m.n, 0, 0.0,
		                  (27 * NP + 18) * WL_ULP_F64, msg, msgn);
	}
	if (!rc)
		snprintf(msg, msgn, "%dx%dx%d boxes of %d particles, %u blocks of %d", m.nbx,
		         m.nby, m.nbz, NP, grid, BLOCK);
out:
	for (int i = 0; i < 4 + NOUT; i++)
		wl_free(&d[i]);
	wl_close(&g);
	free(out);
	free(m.x);
	free(m.y);
	free(m.z);
	free(m.q);
	for (int c = 0; c < NOUT; c++) {
		free(m.want[c]);
		free(m.mag[c]);
	}
	return rc;
}
