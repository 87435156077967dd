/*
 * dwt2d.c -- host side of dwt2d (see dwt2d.cu): three levels of the
 * forward 9/7 transform of a random image, one launch per level, each
 * level into its own buffer and each checked.
 *
 * Sizes (width x height): 208x120 (small), 1200x800 (default), 2400x1600
 * (large); levels halve them twice more.  Tiles are 16 x 8 output pairs,
 * so level 0 runs 7x8 = 56, 38x50 = 1,900 and 75x100 = 7,500 blocks of
 * 128 threads, and no level is a whole number of tiles.  Widths must be
 * multiples of 16 (every level's source pitch a multiple of 4, for the
 * float4 loads); pixels are uniform in [0, 255].
 *
 * Tolerance.  The reference lifts in double with the same float-rounded
 * constants, mirroring at the ends by index rules rather than by
 * extending the input as the GPU does (the two agree because the 9/7
 * lifting steps preserve the symmetry of the extension), and carries a
 * bound E on the float error of every value, pass by pass.  New rounding
 * errors: a lifting step v += c*(a + b) whose operands are bounded by
 * M(v), M(a), M(b) rounds three times (twice if fused), each time by at
 * most u times M(v) + |c|(M(a) + M(b)), and the errors of earlier steps
 * are lifted along with the values, so with M the lifting of |x| by
 * |A|, |B|, |C|, |D| the four steps and the scaling of one pass make at
 * most 13u*M.  Errors the pass inherits go through the pass as through
 * any linear filter: they grow by at most its gain G = the largest
 * absolute row sum of the 1D analysis operator (computed from impulse
 * responses; mirrored rows fold taps and sum to less), applied to the
 * largest inherited error on the line.  So a pass maps E to
 * G*max(E) + 13u*M, rows then columns, level after level on the low-low
 * quadrant.  The check allows 1.1*E (the pad covers O(u^2) terms): about
 * 1e-5 relative at every level, where a misplaced or mis-lifted
 * coefficient is off by ~1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { TPX = 16, TPY = 8, BLOCK = 128, LEVELS = 3, SHARED = (2 * TPY + 7) * (2 * TPX + 1) * 4 };

/* the float constants of dwt2d.cu, as the GPU uses them */
static const float LA = -1.586134342059924f, LB = -0.052980118572961f;
static const float LC = 0.882911075530934f, LD = 0.443506852043971f;
static const float LK = 1.230174104914001f;

/* one 1D level of n samples (n even) at stride st: values v and error
 * bounds e, in place (low band first); s, d, sm, dm: scratch of n/2 each */
static void lift_line(double *v, double *e, int n, int st, double gain, double *s, double *d,
                      double *sm, double *dm)
{
	const double c[4] = { LA, LB, LC, LD };
	double emax = 0, ks = 1.0f / LK, kd = 0.5f * LK;
	int h = n / 2;

	for (int i = 0; i < h; i++) {
		s[i] = v[2 * i * st];
		d[i] = v[(2 * i + 1) * st];
		sm[i] = fabs(s[i]);
		dm[i] = fabs(d[i]);
		emax = fmax(emax, fmax(e[2 * i * st], e[(2 * i + 1) * st]));
	}
	for (int k = 0; k < 4; k += 2) {
		for (int i = 0; i < h; i++) {  /* d_i += c*(s_i + s_i+1), s_h = s_h-1 */
			int i1 = i + 1 < h ? i + 1 : h - 1;
			d[i] += c[k] * (s[i] + s[i1]);
			dm[i] += fabs(c[k]) * (sm[i] + sm[i1]);
		}
		for (int i = 0; i < h; i++) {  /* s_i += c*(d_i-1 + d_i), d_-1 = d_0 */
			int i0 = i > 0 ? i - 1 : 0;
			s[i] += c[k + 1] * (d[i0] + d[i]);
			sm[i] += fabs(c[k + 1]) * (dm[i0] + dm[i]);
		}
	}
	for (int i = 0; i < h; i++) {
		v[i * st] = s[i] * ks;
		v[(h + i) * st] = d[i] * kd;
		e[i * st] = gain * emax + 13 * WL_ULP_F32 * sm[i] * ks;
		e[(h + i) * st] = gain * emax + 13 * WL_ULP_F32 * dm[i] * kd;
	}
}

/* G: the largest absolute row sum of the 1D analysis operator, from the
 * responses to unit impulses (n = 64 is wider than any filter) */
static double analysis_gain(void)
{
	enum { N = 64 };
	double v[N], e[N] = { 0 }, rows[N] = { 0 }, scratch[2 * N], g = 0;

	for (int k = 0; k < N; k++) {
		for (int i = 0; i < N; i++)
			v[i] = i == k;
		lift_line(v, e, N, 1, 0, scratch, scratch + N / 2, scratch + N,
		          scratch + N + N / 2);
		for (int i = 0; i < N; i++)
			rows[i] += fabs(v[i]);
	}
	for (int i = 0; i < N; i++)
		g = fmax(g, rows[i]);
	return g;
}

/* a level in place on the w x h top-left corner of a pitch-wide image */
static int ref_level(double *v, double *e, int w, int h, int pitch, double gain)
{
	int n = w > h ? w : h;
	double *tmp = malloc((size_t)2 * n * sizeof(double));

	if (!tmp)
		return -1;
	for (int y = 0; y < h; y++)
		lift_line(v + (size_t)y * pitch, e + (size_t)y * pitch, w, 1, gain, tmp,
		          tmp + n / 2, tmp + n, tmp + n + n / 2);
	for (int x = 0; x < w; x++)
		lift_line(v + x, e + x, h, pitch, gain, tmp, tmp + n / 2, tmp + n, tmp + n + n / 2);
	free(tmp);
	return 0;
}

int wl_dwt2d_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][2] = { { 208, 120 }, { 1200, 800 }, { 2400, 1600 } };
	int W = dims[args->size][0], H = dims[args->size][1];
	size_t n = (size_t)W * H;
	float *img = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
	double *v = malloc(n * sizeof(double)), *err = malloc(n * sizeof(double));
	double *want = malloc(n * sizeof(double)), *bound = malloc(n * sizeof(double));
	WlGpu g = { 0 };
	CUdeviceptr d_img = 0, d_lev[LEVELS] = { 0 };
	CUfunction f;
	WlRng rng;
	int rc = 0;
	unsigned blocks0 = 0;
	double gain = analysis_gain();

	if (!img || !out || !v || !err || !want || !bound) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	for (size_t i = 0; i < n; i++) {
		img[i] = wl_rng_f32(&rng, 0.0f, 255.0f);
		v[i] = img[i];
		err[i] = 0;  /* the input is exact */
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "dwt97_tile"));
	CHECK_CU(cuMemAlloc(&d_img, n * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_img, img, n * sizeof(float)));
	for (int l = 0; l < LEVELS && !rc; l++) {
		int w = W >> l, h = H >> l, sp = l ? w * 2 : W;
		size_t nl = (size_t)w * h;
		CUdeviceptr src = l ? d_lev[l - 1] : d_img;
		unsigned gx = wl_cdiv((size_t)w / 2, TPX), gy = wl_cdiv((size_t)h / 2, TPY);
		void *params[] = { &src, &sp, &d_lev[l], &w, &w, &h };
		CHECK_CU(cuMemAlloc(&d_lev[l], nl * sizeof(float)));
		CHECK_CU(cuMemsetD32(d_lev[l], 0x7fc00000u, nl));  /* NaN: catch unwritten */
		CHECK_CU(cuLaunchKernel(f, gx, gy, 1, BLOCK, 1, 1, SHARED, NULL, params, NULL));
		CHECK_CU(cuMemcpyDtoH(out, d_lev[l], nl * sizeof(float)));
		blocks0 = l ? blocks0 : gx * gy;

		/* reference: this level on the top-left w x h of v, then compact it */
		if (ref_level(v, err, w, h, W, gain)) {
			rc = wl_oom(msg, msgn);
			goto out;
		}
		for (int y = 0; y < h; y++) {
			memcpy(want + (size_t)y * w, v + (size_t)y * W, (size_t)w * sizeof(double));
			memcpy(bound + (size_t)y * w, err + (size_t)y * W, (size_t)w * sizeof(double));
		}
		char what[16];
		snprintf(what, sizeof what, "level%d", l);
		rc = wl_check_f32(what, out, want, bound, nl, (size_t)w, 0.0, 1.1, msg, msgn);
	}
	if (!rc)
		snprintf(msg, msgn, "%dx%d image, %d levels, %u blocks of %d at level 0", W, H,
		         LEVELS, blocks0, BLOCK);
out:
	wl_free(&d_img);
	for (int l = 0; l < LEVELS; l++)
		wl_free(&d_lev[l]);
	wl_close(&g);
	free(img);
	free(out);
	free(v);
	free(err);
	free(want);
	free(bound);
	return rc;
}
