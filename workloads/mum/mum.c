/*
 * mum.c -- host side of mum (see mum.cu): a random genome with repeats,
 * its suffix array, and reads to match against it.
 *
 * Sizes (genome bases, reads): 16,384, 256 (small); 1,048,576, 102,400
 * (default); 4,194,304, 409,600 (large).  Reads are 24 bases, searched
 * from their first 5 start positions (tails of 24 down to 20 bases: two
 * rounds of four lanes, the second with one); one thread per read in
 * blocks of 128: 2, 800 and 3,200 blocks.
 *
 * The genome: uniform random bases, except that one stretch in 16 of
 * 32-288 bases copies an earlier stretch (repeats give equal suffix
 * prefixes, long comparisons and matches that are not unique).  Half of
 * the reads are taken from the genome with up to two substitutions, so
 * they match for long stretches; the others are random and match for
 * about log4(genome) bases.  The suffix array is built here by merge sort.
 *
 * Everything is integer: rank, match length and match position are
 * checked exactly against a plain binary search with full comparisons
 * (no skipping) and common prefixes measured directly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 128, LEN = 24, NPOS = 5 };

/* suffix a against suffix b of ref[0..n): <0, 0, >0 */
static int cmp_suffix(const unsigned char *ref, int n, int a, int b)
{
	int la = n - a, lb = n - b, c = memcmp(ref + a, ref + b, (size_t)(la < lb ? la : lb));
	return c ? c : la - lb;
}

/* sort sa[0..n) by suffix, using tmp[0..n) */
static void sort_suffixes(const unsigned char *ref, int nr, int *sa, int *tmp, int n)
{
	if (n < 2)
		return;
	int h = n / 2;
	sort_suffixes(ref, nr, sa, tmp, h);
	sort_suffixes(ref, nr, sa + h, tmp, n - h);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_suffix(ref, nr, sa[i], sa[j]) <= 0 ? sa[i++] : sa[j++];
	while (i < h)
		tmp[k++] = sa[i++];
	while (j < n)
		tmp[k++] = sa[j++];
	memcpy(sa, tmp, (size_t)n * sizeof(int));
}

/* common prefix of q[0..m) and the suffix at p (0 if p < 0) */
static int lcp(const unsigned char *ref, int nr, int p, const unsigned char *q, int m)
{
	int k = 0;

	while (p >= 0 && k < m && p + k < nr && ref[p + k] == q[k])
		k++;
	return k;
}

/* the first rank whose suffix is >= q[0..m) (q a prefix counts as <=) */
static int lower_bound(const unsigned char *ref, int nr, const int *sa, const unsigned char *q,
                       int m)
{
	int lo = 0, hi = nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, p = sa[mid], k = lcp(ref, nr, p, q, m);
		int ge = k == m || (p + k < nr && ref[p + k] > q[k]);
		if (ge)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void make_genome(unsigned char *ref, int nr, WlRng *r)
{
	for (int i = 0; i < nr;) {
		int n = 32 + (int)wl_rng_below(r, 257);
		n = n < nr - i ? n : nr - i;
		if (i > 1024 && !wl_rng_below(r, 16))
			memcpy(ref + i, ref + wl_rng_below(r, (uint32_t)(i - n)), (size_t)n);
		else
			for (int k = 0; k < n; k++)
				ref[i + k] = (unsigned char)wl_rng_below(r, 4);
		i += n;
	}
}

int wl_mum_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[][2] = { { 16384, 256 }, { 1048576, 102400 }, { 4194304, 409600 } };
	int nr = sizes[args->size][0], nreads = sizes[args->size][1], len = LEN, npos = NPOS;
	size_t nout = (size_t)nreads * NPOS, ob = nout * sizeof(int);
	unsigned char *ref = malloc((size_t)nr), *reads = malloc((size_t)nreads * LEN);
	int *sa = malloc((size_t)nr * sizeof(int)), *tmp = malloc((size_t)nr * sizeof(int));
	int *want = malloc(3 * ob), *got = malloc(3 * ob);  /* rank, mlen, mpos */
	WlGpu g = { 0 };
	CUdeviceptr d_ref = 0, d_sa = 0, d_reads = 0, d_out = 0;
	CUfunction f;
	WlRng rng;
	int rc = 0;
	unsigned grid = wl_cdiv((size_t)nreads, BLOCK);

	if (!ref || !reads || !sa || !tmp || !want || !got) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	make_genome(ref, nr, &rng);
	for (int i = 0; i < nr; i++)
		sa[i] = i;
	sort_suffixes(ref, nr, sa, tmp, nr);
	for (int r = 0; r < nreads; r++) {
		unsigned char *q = reads + (size_t)r * LEN;
		if (r % 2) {
			memcpy(q, ref + wl_rng_below(&rng, (uint32_t)(nr - LEN)), LEN);
			for (int m = (int)wl_rng_below(&rng, 3); m > 0; m--)
				q[wl_rng_below(&rng, LEN)] = (unsigned char)wl_rng_below(&rng, 4);
		} else {
			for (int k = 0; k < LEN; k++)
				q[k] = (unsigned char)wl_rng_below(&rng, 4);
		}
		for (int s = 0; s < NPOS; s++) {
			size_t i = (size_t)r * NPOS + s;
			int rk = lower_bound(ref, nr, sa, q + s, LEN - s);
			int lo = rk > 0 ? sa[rk - 1] : -1, hi = rk < nr ? sa[rk] : -1;
			int llcp = lcp(ref, nr, lo, q + s, LEN - s), hlcp = lcp(ref, nr, hi, q + s, LEN - s);
			want[i] = rk;
			want[nout + i] = llcp > hlcp ? llcp : hlcp;
			want[2 * nout + i] = hlcp >= llcp ? hi : lo;
		}
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "mum_match"));
	CHECK_CU(cuMemAlloc(&d_ref, (size_t)nr));
	CHECK_CU(cuMemAlloc(&d_sa, (size_t)nr * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d_reads, (size_t)nreads * LEN));
	CHECK_CU(cuMemAlloc(&d_out, 3 * ob));
	CHECK_CU(cuMemcpyHtoD(d_ref, ref, (size_t)nr));
	CHECK_CU(cuMemcpyHtoD(d_sa, sa, (size_t)nr * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d_reads, reads, (size_t)nreads * LEN));
	CUdeviceptr d_rank = d_out, d_mlen = d_out + ob, d_mpos = d_out + 2 * ob;
	void *params[] = { &d_ref, &nr, &d_sa, &d_reads, &nreads, &len, &npos, &d_rank, &d_mlen,
	                   &d_mpos };
	CHECK_CU(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuMemcpyDtoH(got, d_out, 3 * ob));

	if (!(rc = wl_check_i32("rank", got, want, nout, msg, msgn)) &&
	    !(rc = wl_check_i32("mlen", got + nout, want + nout, nout, msg, msgn)))
		rc = wl_check_i32("mpos", got + 2 * nout, want + 2 * nout, nout, msg, msgn);
	if (!rc) {
		long long total = 0;
		for (size_t i = 0; i < nout; i++)
			total += got[nout + i];
		snprintf(msg, msgn, "%d-base genome, %d reads x %d tails, mean match %.2f, "
		         "%u blocks of %d", nr, nreads, NPOS, (double)total / (double)nout, grid,
		         BLOCK);
	}
out:
	wl_free(&d_ref);
	wl_free(&d_sa);
	wl_free(&d_reads);
	wl_free(&d_out);
	wl_close(&g);
	free(ref);
	free(reads);
	free(sa);
	free(tmp);
	free(want);
	free(got);
	return rc;
}
