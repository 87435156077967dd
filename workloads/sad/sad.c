/*
 * sad.c -- host side of sad (see sad.cu): motion search of every 16x16
 * macroblock over a +-8 pixel window, then the best vectors.
 *
 * Sizes (frame): 176x144 (QCIF, small), 704x576 (4CIF, default), 1408x1152
 * (16CIF, large): 11x9, 44x36 and 88x72 macroblocks.  sad_search runs blocks
 * of 128 threads on pairs of macroblocks: 6x9 = 54 (the right column half
 * idle: 11 macroblocks across), 22x36 = 792 and 44x72 = 3,168 blocks;
 * sad_best one block of 256 per macroblock.
 *
 * The frames: the reference is a smooth random texture plus noise, and
 * the current frame is the reference moved by a motion vector in [-6, 6]
 * chosen per 32x32 region, plus noise of +-3, so each macroblock has a
 * clear best match near its true vector and many near-ties elsewhere.
 *
 * Everything is integer, so the check is exact: all 8x8 SADs of every
 * candidate, and the five best (SAD, candidate) keys of every
 * macroblock, whose ties go to the first candidate in raster order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { MB = 16, R = 8, NPOS = 4 * R * R, BLOCK = 128 };

static unsigned char clamp8(double v)
{
	return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

/* 0, or -1 when out of memory */
static int make_frames(unsigned char *ref, unsigned char *cur, int w, int h, uint64_t seed)
{
	WlRng rng;
	double a[4], f[4][2];

	wl_rng_init(&rng, seed, 1);
	for (int k = 0; k < 4; k++) {
		a[k] = 20 + wl_rng_below(&rng, 30);
		f[k][0] = (wl_rng_below(&rng, 1000) + 200) * 1e-4;  /* cycles per pixel */
		f[k][1] = (wl_rng_below(&rng, 1000) + 200) * 1e-4;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double v = 128 + (double)wl_rng_below(&rng, 17) - 8;
			for (int k = 0; k < 4; k++)
				v += a[k] * sin(2 * M_PI * (f[k][0] * x + f[k][1] * y) + k);
			ref[y * w + x] = clamp8(v);
		}
	int rw = (w + 31) / 32, rh = (h + 31) / 32;
	int *mv = malloc((size_t)rw * rh * 2 * sizeof(int));
	if (!mv)
		return -1;
	for (int i = 0; i < rw * rh * 2; i++)
		mv[i] = (int)wl_rng_below(&rng, 13) - 6;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const int *v = &mv[((y / 32) * rw + x / 32) * 2];
			int sx = x + v[0], sy = y + v[1];
			sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
			sy = sy < 0 ? 0 : sy >= h ? h - 1 : sy;
			cur[y * w + x] = clamp8(ref[sy * w + sx] + (double)wl_rng_below(&rng, 7) - 3);
		}
	free(mv);
	return 0;
}

/* all 8x8 SADs and the best keys, as the kernels define them */
static void reference(const unsigned char *cur, const unsigned char *ref, int w, int h,
                      uint32_t *sad, uint32_t *best)
{
	int nmb = (w / MB) * (h / MB);

	for (int mb = 0; mb < nmb; mb++) {
		int bx = mb % (w / MB) * MB, by = mb / (w / MB) * MB;
		uint32_t *b = &best[mb * 5];
		for (int k = 0; k < 5; k++)
			b[k] = 0xffffffffu;
		for (int pos = 0; pos < NPOS; pos++) {
			int dx = pos % (2 * R) - R, dy = pos / (2 * R) - R;
			uint32_t *q = &sad[((size_t)mb * NPOS + pos) * 4];
			q[0] = q[1] = q[2] = q[3] = 0;
			for (int y = 0; y < MB; y++)
				for (int x = 0; x < MB; x++) {
					int rx = bx + x + dx, ry = by + y + dy;
					rx = rx < 0 ? 0 : rx >= w ? w - 1 : rx;
					ry = ry < 0 ? 0 : ry >= h ? h - 1 : ry;
					q[y / 8 * 2 + x / 8] += (uint32_t)abs(cur[(by + y) * w + bx + x] -
					                                     ref[ry * w + rx]);
				}
			uint32_t key[5] = { q[0] + q[1] + q[2] + q[3], q[0], q[1], q[2], q[3] };
			for (int k = 0; k < 5; k++) {
				key[k] = key[k] << 8 | (uint32_t)pos;
				b[k] = key[k] < b[k] ? key[k] : b[k];
			}
		}
	}
}

int wl_sad_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][2] = { { 176, 144 }, { 704, 576 }, { 1408, 1152 } };
	int w = dims[args->size][0], h = dims[args->size][1], nmb = (w / MB) * (h / MB);
	size_t npix = (size_t)w * h, nsad = (size_t)nmb * NPOS * 4, nbest = (size_t)nmb * 5;
	unsigned char *ref = malloc(npix), *cur = malloc(npix);
	uint32_t *want = malloc(nsad * 4), *got = malloc(nsad * 4);
	uint32_t *wbest = malloc(nbest * 4), *gbest = malloc(nbest * 4);
	WlGpu g = { 0 };
	CUdeviceptr d_ref = 0, d_cur = 0, d_sad = 0, d_best = 0;
	CUfunction fs, fb;
	int rc;
	unsigned gx = wl_cdiv((size_t)(w / MB), 2), gy = (unsigned)(h / MB);

	if (!ref || !cur || !want || !got || !wbest || !gbest ||
	    make_frames(ref, cur, w, h, args->seed)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	reference(cur, ref, w, h, want, wbest);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fs, g.mod, "sad_search"));
	CHECK_CU(cuModuleGetFunction(&fb, g.mod, "sad_best"));
	CHECK_CU(cuMemAlloc(&d_ref, npix));
	CHECK_CU(cuMemAlloc(&d_cur, npix));
	CHECK_CU(cuMemAlloc(&d_sad, nsad * 4));
	CHECK_CU(cuMemAlloc(&d_best, nbest * 4));
	CHECK_CU(cuMemcpyHtoD(d_ref, ref, npix));
	CHECK_CU(cuMemcpyHtoD(d_cur, cur, npix));
	CHECK_CU(cuMemsetD32(d_sad, 0xdeadbeefu, nsad));
	void *ps[] = { &d_cur, &d_ref, &w, &h, &d_sad };
	CHECK_CU(cuLaunchKernel(fs, gx, gy, 1, BLOCK, 1, 1, 0, NULL, ps, NULL));
	void *pb[] = { &d_sad, &d_best };
	CHECK_CU(cuLaunchKernel(fb, (unsigned)nmb, 1, 1, NPOS, 1, 1, 0, NULL, pb, NULL));
	CHECK_CU(cuMemcpyDtoH(got, d_sad, nsad * 4));
	CHECK_CU(cuMemcpyDtoH(gbest, d_best, nbest * 4));

	rc = wl_check_u32("sad8x8", got, want, nsad, msg, msgn);
	if (!rc)
		rc = wl_check_u32("best", gbest, wbest, nbest, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%dx%d frame, %d macroblocks x %d candidates, %ux%u blocks of %d",
		         w, h, nmb, NPOS, gx, gy, BLOCK);
out:
	wl_free(&d_ref);
	wl_free(&d_cur);
	wl_free(&d_sad);
	wl_free(&d_best);
	wl_close(&g);
	free(ref);
	free(cur);
	free(want);
	free(got);
	free(wbest);
	free(gbest);
	return rc;
}
