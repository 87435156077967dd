/*
 * nn.c -- host side of nn (see nn.cu): the k = 10 records nearest to a
 * query point, as Rodinia's nn does for hurricane records, but with the
 * selection on the GPU as well: one distance kernel, then two passes of
 * a k-smallest selection.
 *
 * Records: latitude in [0, 90), longitude in [0, 180), uniform; every 97th
 * record repeats an earlier one, so some distances tie and the order by
 * index matters.  The query point is random in the same box.
 *
 * Sizes: 8,192 (small), 1,048,576 (default), 4,194,304 (large) records.
 * nn_dist runs blocks of 256 threads, one record each (32, 4,096 and
 * 16,384 blocks); nn_select's first pass gives each block of 128 threads
 * a chunk of 2,048 keys (4, 512 and 2,048 blocks), its second pass one
 * block over the 10 candidates of each first-pass block.  Blocks of 128
 * leave nn_select's occupancy to the thread and block-slot limits at the
 * ~22 registers its 64-bit keys need.
 *
 * Checks.  Distances: d = sqrt(dx*dx + dy*dy) after two subtractions has
 * three roundings before the square root (a difference, a square, the
 * sum; a fused multiply-add only removes one) and one after it, so its
 * relative error is at most 2*3u/2 + u = 4u to first order; each key's
 * distance is checked against a double reference with rtol 5u, and its
 * index bits exactly.  Selection: exact.  Both passes are compared with a
 * CPU selection over the GPU's own keys, so the result must be exactly
 * the k smallest keys the GPU computed; since those were just checked,
 * they are the true k nearest up to ties within rounding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 256, SEL_BLOCK = 128, CHUNK = 2048, K = 10, DUP_EVERY = 97 };
#define NONE 0xffffffffffffffffull

/* the k smallest of keys[0..n) in out[0..k), ascending, NONE-padded */
static void select_k(const uint64_t *keys, int n, int k, uint64_t *out)
{
	int have = 0;

	for (int i = 0; i < n; i++) {
		uint64_t v = keys[i];
		if (have == k && v >= out[k - 1])
			continue;
		int j = have < k ? have++ : k - 1;
		while (j > 0 && out[j - 1] > v) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
	}
	for (int j = have; j < k; j++)
		out[j] = NONE;
}

/* the exact comparison of two key arrays, as wl_check_u32 words */
static int check_keys(const char *what, const uint64_t *got, const uint64_t *want, size_t n,
                      char *msg, size_t msgn)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			snprintf(msg, msgn, "%s[%zu]: got key 0x%016llx, expected 0x%016llx", what,
			         i, (unsigned long long)got[i], (unsigned long long)want[i]);
			return 1;
		}
	return 0;
}

/* the distances and indices packed in the GPU's keys, against the reference */
static int check_dist(const float *lat, const float *lng, float qlat, float qlng,
                      const uint64_t *keys, int n, char *msg, size_t msgn)
{
	float *got = malloc((size_t)n * sizeof(float));
	double *want = malloc((size_t)n * sizeof(double));
	int rc = 0;

	if (!got || !want) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		uint32_t bits = (uint32_t)(keys[i] >> 32);
		double dy = (double)lat[i] - qlat, dx = (double)lng[i] - qlng;
		if ((uint32_t)keys[i] != (uint32_t)i) {
			snprintf(msg, msgn, "keys[%d]: index bits %u", i,
			         (unsigned)(uint32_t)keys[i]);
			rc = 1;
			goto out;
		}
		memcpy(&got[i], &bits, sizeof bits);
		want[i] = sqrt(dx * dx + dy * dy);
	}
	rc = wl_check_f32("distance", got, want, NULL, (size_t)n, 0, 0.0, 5 * WL_ULP_F32,
	                  msg, msgn);
out:
	free(got);
	free(want);
	return rc;
}

typedef struct Buf {
	float *lat, *lng;
	uint64_t *keys, *cand, *wcand, best[K], wbest[K];
} Buf;

static int make_records(Buf *b, int n, uint64_t seed, float *qlat, float *qlng)
{
	WlRng rng;
	int nblk = (int)wl_cdiv((size_t)n, CHUNK);

	b->lat = malloc((size_t)n * sizeof(float));
	b->lng = malloc((size_t)n * sizeof(float));
	b->keys = malloc((size_t)n * sizeof(uint64_t));
	b->cand = malloc((size_t)nblk * K * sizeof(uint64_t));
	b->wcand = malloc((size_t)nblk * K * sizeof(uint64_t));
	if (!b->lat || !b->lng || !b->keys || !b->cand || !b->wcand)
		return -1;
	wl_rng_init(&rng, seed, 1);
	for (int i = 0; i < n; i++) {
		if (i >= DUP_EVERY && i % DUP_EVERY == 0) {
			int j = (int)wl_rng_below(&rng, (uint32_t)i);
			b->lat[i] = b->lat[j];
			b->lng[i] = b->lng[j];
			continue;
		}
		b->lat[i] = wl_rng_f32(&rng, 0.0f, 90.0f);
		b->lng[i] = wl_rng_f32(&rng, 0.0f, 180.0f);
	}
	*qlat = wl_rng_f32(&rng, 0.0f, 90.0f);
	*qlng = wl_rng_f32(&rng, 0.0f, 180.0f);
	return 0;
}

int wl_nn_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 8192, 1048576, 4194304 };
	int n = sizes[args->size], chunk = CHUNK, k = K, rc;
	int nblk = (int)wl_cdiv((size_t)n, CHUNK), ncand = nblk * K;
	unsigned smem = SEL_BLOCK / 32 * sizeof(uint64_t);
	float qlat, qlng;
	Buf b = { 0 };
	WlGpu g = { 0 };
	CUdeviceptr d_lat = 0, d_lng = 0, d_keys = 0, d_cand = 0, d_best = 0;
	CUfunction fdist, fsel;

	if (make_records(&b, n, args->seed, &qlat, &qlng)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fdist, g.mod, "nn_dist"));
	CHECK_CU(cuModuleGetFunction(&fsel, g.mod, "nn_select"));
	CHECK_CU(cuMemAlloc(&d_lat, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_lng, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_keys, (size_t)n * sizeof(uint64_t)));
	CHECK_CU(cuMemAlloc(&d_cand, (size_t)ncand * sizeof(uint64_t)));
	CHECK_CU(cuMemAlloc(&d_best, K * sizeof(uint64_t)));
	CHECK_CU(cuMemcpyHtoD(d_lat, b.lat, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_lng, b.lng, (size_t)n * sizeof(float)));

	void *pd[] = { &n, &qlat, &qlng, &d_lat, &d_lng, &d_keys };
	void *p1[] = { &n, &chunk, &k, &d_keys, &d_cand };
	void *p2[] = { &ncand, &ncand, &k, &d_cand, &d_best };
	CHECK_CU(cuLaunchKernel(fdist, wl_cdiv((size_t)n, BLOCK), 1, 1, BLOCK, 1, 1, 0, NULL,
	                        pd, NULL));
	CHECK_CU(cuLaunchKernel(fsel, (unsigned)nblk, 1, 1, SEL_BLOCK, 1, 1, smem, NULL, p1,
	                        NULL));
	CHECK_CU(cuLaunchKernel(fsel, 1, 1, 1, SEL_BLOCK, 1, 1, smem, NULL, p2, NULL));
	CHECK_CU(cuMemcpyDtoH(b.keys, d_keys, (size_t)n * sizeof(uint64_t)));
	CHECK_CU(cuMemcpyDtoH(b.cand, d_cand, (size_t)ncand * sizeof(uint64_t)));
	CHECK_CU(cuMemcpyDtoH(b.best, d_best, K * sizeof(uint64_t)));

	if ((rc = check_dist(b.lat, b.lng, qlat, qlng, b.keys, n, msg, msgn)))
		goto out;
	for (int i = 0; i < nblk; i++)
		select_k(&b.keys[(size_t)i * CHUNK], i == nblk - 1 ? n - i * CHUNK : CHUNK, K,
		         &b.wcand[i * K]);
	if ((rc = check_keys("candidates", b.cand, b.wcand, (size_t)ncand, msg, msgn)))
		goto out;
	select_k(b.keys, n, K, b.wbest);
	if ((rc = check_keys("nearest", b.best, b.wbest, K, msg, msgn)))
		goto out;
	uint32_t dbits = (uint32_t)(b.best[0] >> 32);
	float d0;
	memcpy(&d0, &dbits, sizeof d0);
	snprintf(msg, msgn, "%d records, k=%d: nearest #%u at %.4f; %d select blocks of %d",
	         n, K, (unsigned)(uint32_t)b.best[0], (double)d0, nblk, SEL_BLOCK);
out:
	wl_free(&d_lat);
	wl_free(&d_lng);
	wl_free(&d_keys);
	wl_free(&d_cand);
	wl_free(&d_best);
	wl_close(&g);
	free(b.lat);
	free(b.lng);
	free(b.keys);
	free(b.cand);
	free(b.wcand);
	return rc;
}
