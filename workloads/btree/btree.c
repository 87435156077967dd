/*
 * btree.c -- host side of btree (see btree.cu): bulk-load a B+ tree of
 * random keys, then run a batch of point queries and a batch of range
 * queries against it.
 *
 * The tree: keys strictly increasing with random gaps of 1-8, values
 * random; leaves filled with 9-16 keys and internal nodes with 9-16
 * children (as a tree grown by insertions would be, at least half full),
 * built level by level; separators are the first keys of the children
 * after the first.  Leaves are nodes 0..nleaf-1, chained in key order.
 *
 * Sizes (keys, queries of each kind): 4,096, 1,536 (small: 2 blocks per
 * kernel); 1,048,576, 614,400 (default: 800 blocks); 4,194,304, 2,457,600
 * (large: 3,200 blocks); blocks of 128 threads x 6 queries.  Point queries
 * ask for a stored key half of the time and for a random number
 * otherwise; range queries span 0-80 from a random start (about 0-18
 * keys, a few running off the end of the leaf chain).
 *
 * Everything is integer: the check against a binary search over the
 * sorted keys is exact, including the 64-bit sums.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { FAN = 16, QPT = 6, BLOCK = 128, NARR = 5 };

typedef struct Tree {
	int nnode, nleaf, root, height;
	int *key, *nk, *child, *val, *next;  /* FAN slots per node (nk, next: one) */
	int *sk, *sv, *rec;                  /* all keys sorted, their values and records */
	int n;                               /* keys */
} Tree;

/* build the tree over t->sk/sv; 0, or -1 out of memory */
static int build(Tree *t, WlRng *r)
{
	int cap = t->n / 8 * 2 + 16;  /* nodes: leaves <= n/9 + 1, internal fewer */

	t->key = malloc((size_t)cap * FAN * sizeof(int));
	t->child = malloc((size_t)cap * FAN * sizeof(int));
	t->val = malloc((size_t)cap * FAN * sizeof(int));
	t->nk = malloc((size_t)cap * sizeof(int));
	t->next = malloc((size_t)cap * sizeof(int));
	if (!t->key || !t->child || !t->val || !t->nk || !t->next)
		return -1;
	for (size_t i = 0; i < (size_t)cap * FAN; i++)
		t->key[i] = t->child[i] = t->val[i] = -1;  /* unused slots */
	int nn = 0;
	for (int i = 0; i < t->n; nn++) {  /* leaves */
		int m = 9 + (int)wl_rng_below(r, 8);
		m = m < t->n - i ? m : t->n - i;
		t->nk[nn] = m;
		for (int j = 0; j < m; j++, i++) {
			t->key[nn * FAN + j] = t->sk[i];
			t->val[nn * FAN + j] = t->sv[i];
			t->rec[i] = nn * FAN + j;
		}
		t->next[nn] = nn + 1;
	}
	t->next[nn - 1] = -1;
	t->nleaf = nn;
	int lo = 0, hi = nn;  /* the level being grouped: nodes [lo, hi) */
	for (t->height = 0; hi - lo > 1; t->height++) {
		for (int c = lo; c < hi; nn++) {
			int m = 9 + (int)wl_rng_below(r, 8);
			m = m < hi - c ? m : hi - c;
			t->nk[nn] = m - 1;
			t->next[nn] = -1;
			for (int j = 0; j < m; j++, c++) {
				t->child[nn * FAN + j] = c;
				if (j) {  /* separator: the smallest key under child c */
					int d = c;
					while (d >= t->nleaf)
						d = t->child[d * FAN];
					t->key[nn * FAN + j - 1] = t->key[d * FAN];
				}
			}
		}
		lo = hi;
		hi = nn;
	}
	t->root = lo;
	t->nnode = nn;
	return 0;
}

/* index of the first sorted key >= k (n if none) */
static int lower_bound(const Tree *t, int k)
{
	int lo = 0, hi = t->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (t->sk[mid] >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int check_u64(const char *what, const unsigned long long *got,
                     const unsigned long long *want, int n, char *msg, size_t msgn)
{
	for (int i = 0; i < n; i++)
		if (got[i] != want[i]) {
			snprintf(msg, msgn, "%s[%d]: got %llu, expected %llu", what, i, got[i], want[i]);
			return 1;
		}
	return 0;
}

int wl_btree_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[][2] = { { 4096, 1536 }, { 1048576, 614400 }, { 4194304, 2457600 } };
	Tree t = { .n = sizes[args->size][0] };
	int nq = sizes[args->size][1];
	size_t qb = (size_t)nq * sizeof(int);
	/* queries and results: point keys, lo, hi; find, start, count (want and got) */
	int *qk = malloc(qb), *qlo = malloc(qb), *qhi = malloc(qb);
	int *want = malloc(3 * qb), *got = malloc(3 * qb);
	unsigned long long *wsum = malloc((size_t)nq * 8), *gsum = malloc((size_t)nq * 8);
	WlGpu g = { 0 };
	CUdeviceptr d_tree[NARR] = { 0 }, d_q[3] = { 0 }, d_out[3] = { 0 }, d_sum = 0;
	CUfunction ff, fr;
	WlRng rng;
	int rc = 0;
	unsigned grid = wl_cdiv((size_t)nq, BLOCK * QPT);

	t.sk = malloc((size_t)t.n * sizeof(int));
	t.sv = malloc((size_t)t.n * sizeof(int));
	t.rec = malloc((size_t)t.n * sizeof(int));
	if (!qk || !qlo || !qhi || !want || !got || !wsum || !gsum || !t.sk || !t.sv || !t.rec) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	for (int i = 0, k = 0; i < t.n; i++) {
		k += 1 + (int)wl_rng_below(&rng, 8);
		t.sk[i] = k;
		t.sv[i] = (int)(wl_rng_u32(&rng) >> 1);
	}
	if (build(&t, &rng)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	int kmax = t.sk[t.n - 1];
	for (int i = 0; i < nq; i++) {
		qk[i] = wl_rng_below(&rng, 2) ? t.sk[wl_rng_below(&rng, (uint32_t)t.n)]
		                               : 1 + (int)wl_rng_below(&rng, (uint32_t)kmax + 8);
		int j = lower_bound(&t, qk[i]);
		want[i] = j < t.n && t.sk[j] == qk[i] ? t.sv[j] : -1;
		qlo[i] = 1 + (int)wl_rng_below(&rng, (uint32_t)kmax + 40);
		qhi[i] = qlo[i] + (int)wl_rng_below(&rng, 81);
		int a = lower_bound(&t, qlo[i]), b = lower_bound(&t, qhi[i] + 1);
		want[nq + i] = a < b ? t.rec[a] : -1;
		want[2 * nq + i] = b - a;
		wsum[i] = 0;
		for (int k = a; k < b; k++)
			wsum[i] += (unsigned)t.sv[k];
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&ff, g.mod, "bt_find"));
	CHECK_CU(cuModuleGetFunction(&fr, g.mod, "bt_range"));
	int *arr[NARR] = { t.key, t.nk, t.child, t.val, t.next };
	size_t abytes[NARR] = { FAN, 1, FAN, FAN, 1 };
	for (int i = 0; i < NARR; i++) {
		abytes[i] *= (size_t)t.nnode * sizeof(int);
		CHECK_CU(cuMemAlloc(&d_tree[i], abytes[i]));
		CHECK_CU(cuMemcpyHtoD(d_tree[i], arr[i], abytes[i]));
	}
	int *qarr[3] = { qk, qlo, qhi };
	for (int i = 0; i < 3; i++) {
		CHECK_CU(cuMemAlloc(&d_q[i], qb));
		CHECK_CU(cuMemAlloc(&d_out[i], qb));
		CHECK_CU(cuMemcpyHtoD(d_q[i], qarr[i], qb));
	}
	CHECK_CU(cuMemAlloc(&d_sum, (size_t)nq * 8));
	void *pf[] = { &d_tree[0], &d_tree[1], &d_tree[2], &d_tree[3], &t.root, &t.height,
	               &d_q[0], &nq, &d_out[0] };
	CHECK_CU(cuLaunchKernel(ff, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pf, NULL));
	void *pr[] = { &d_tree[0], &d_tree[1], &d_tree[2], &d_tree[3], &d_tree[4], &t.root,
	               &t.height, &d_q[1], &d_q[2], &nq, &d_out[1], &d_out[2], &d_sum };
	CHECK_CU(cuLaunchKernel(fr, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pr, NULL));
	for (int i = 0; i < 3; i++)
		CHECK_CU(cuMemcpyDtoH(got + (size_t)i * nq, d_out[i], qb));
	CHECK_CU(cuMemcpyDtoH(gsum, d_sum, (size_t)nq * 8));

	if (!(rc = wl_check_i32("find", got, want, (size_t)nq, msg, msgn)) &&
	    !(rc = wl_check_i32("start", got + nq, want + nq, (size_t)nq, msg, msgn)) &&
	    !(rc = wl_check_i32("count", got + 2 * nq, want + 2 * nq, (size_t)nq, msg, msgn)))
		rc = check_u64("sum", gsum, wsum, nq, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%d keys in %d nodes (height %d), %d point + %d range queries, "
		         "%u blocks of %d", t.n, t.nnode, t.height + 1, nq, nq, grid, BLOCK);
out:
	for (int i = 0; i < NARR; i++)
		wl_free(&d_tree[i]);
	for (int i = 0; i < 3; i++) {
		wl_free(&d_q[i]);
		wl_free(&d_out[i]);
	}
	wl_free(&d_sum);
	wl_close(&g);
	free(qk);
	free(qlo);
	free(qhi);
	free(want);
	free(got);
	free(wsum);
	free(gsum);
	free(t.sk);
	free(t.sv);
	free(t.rec);
	free(t.key);
	free(t.nk);
	free(t.child);
	free(t.val);
	free(t.next);
	return rc;
}
