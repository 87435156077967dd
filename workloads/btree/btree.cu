/*
 * btree.cu -- point and range queries on a B+ tree stored in flat arrays
 * (the two query kernels of Rodinia's b+tree, written afresh, with one
 * thread walking each query rather than a block per query).
 *
 * Nodes hold up to BT_FAN keys in sorted order, BT_FAN slots per node in
 * every array.  An internal node with n keys has n + 1 children: child c
 * holds the keys in [key[c-1], key[c]).  Leaves hold (key, value) pairs
 * and the index of the next leaf (-1 after the last), so a range scan
 * walks the leaf chain.  All leaves are at the same depth, so the descent
 * is a loop of `height` steps, uniform across threads; what varies is
 * where each step goes and, in range queries, how far the scan runs.
 *
 * Searching within a node is bt_upper, the binary search for the first
 * key greater than k, kept out of line (__noinline__: a real .func and
 * call in the PTX, its loop trip count depending on the node's size).
 *
 * Each thread carries QPT queries and advances them together: the
 * descents step all QPT nodes per level, and the range scans run in one
 * loop that moves every unfinished query on by one key until all are
 * done, so QPT nodes, positions, bounds, first records, counts and 64-bit
 * sums are live at once (and lanes finish at different times:
 * divergence).
 */

#define BT_FAN 16               /* slots per node */
#define QPT 6                   /* queries per thread */
#define BLOCK 128

/* the first i in [0, n) with keys[i] > k, or n */
__device__ __noinline__ int bt_upper(const int *__restrict__ keys, int n, int k)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (keys[mid] > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* the leaf whose key range holds k, descending from root through height
 * internal levels */
__device__ __forceinline__ void descend(const int *__restrict__ key, const int *__restrict__ nk,
                                        const int *__restrict__ child, int root, int height,
                                        const int (&k)[QPT], int (&node)[QPT])
{
#pragma unroll
	for (int q = 0; q < QPT; q++)
		node[q] = root;
	for (int l = 0; l < height; l++) {
#pragma unroll
		for (int q = 0; q < QPT; q++) {
			int c = bt_upper(key + node[q] * BT_FAN, nk[node[q]], k[q]);
			node[q] = child[node[q] * BT_FAN + c];
		}
	}
}

/* val_out[i] = the value stored under qkey[i], or -1 */
extern "C" __global__ void __launch_bounds__(BLOCK)
bt_find(const int *__restrict__ key, const int *__restrict__ nk, const int *__restrict__ child,
        const int *__restrict__ val, int root, int height, const int *__restrict__ qkey,
        int nq, int *__restrict__ out)
{
	int q0 = blockIdx.x * BLOCK * QPT + threadIdx.x;
	int k[QPT], node[QPT];

#pragma unroll
	for (int q = 0; q < QPT; q++)
		k[q] = qkey[min(q0 + q * BLOCK, nq - 1)];
	descend(key, nk, child, root, height, k, node);
#pragma unroll
	for (int q = 0; q < QPT; q++) {
		const int *lk = key + node[q] * BT_FAN;
		int i = bt_upper(lk, nk[node[q]], k[q]) - 1;   /* last key <= k */
		if (q0 + q * BLOCK < nq)
			out[q0 + q * BLOCK] = i >= 0 && lk[i] == k[q] ? val[node[q] * BT_FAN + i] : -1;
	}
}

/* for the keys in [qlo[i], qhi[i]]: start[i], the record index (leaf *
 * BT_FAN + slot) of the first one, or -1 if there is none; count[i], how
 * many; sum[i], the sum of their values (keys are positive, so qlo - 1
 * does not wrap) */
extern "C" __global__ void __launch_bounds__(BLOCK)
bt_range(const int *__restrict__ key, const int *__restrict__ nk,
         const int *__restrict__ child, const int *__restrict__ val,
         const int *__restrict__ next, int root, int height, const int *__restrict__ qlo,
         const int *__restrict__ qhi, int nq, int *__restrict__ start,
         int *__restrict__ count, unsigned long long *__restrict__ sum)
{
	int q0 = blockIdx.x * BLOCK * QPT + threadIdx.x;
	int lo[QPT], hi[QPT], node[QPT], pos[QPT], cnt[QPT], first[QPT];
	unsigned long long s[QPT];
	unsigned live = 0;

#pragma unroll
	for (int q = 0; q < QPT; q++) {
		int i = min(q0 + q * BLOCK, nq - 1);
		lo[q] = qlo[i] - 1;
		hi[q] = qhi[i];
	}
	descend(key, nk, child, root, height, lo, node);
#pragma unroll
	for (int q = 0; q < QPT; q++) {
		pos[q] = bt_upper(key + node[q] * BT_FAN, nk[node[q]], lo[q]);  /* first >= qlo */
		cnt[q] = 0;
		first[q] = -1;
		s[q] = 0;
		live |= (q0 + q * BLOCK < nq) << q;
	}
	while (live) {
#pragma unroll
		for (int q = 0; q < QPT; q++) {
			if (!(live >> q & 1))
				continue;
			if (pos[q] == nk[node[q]]) {          /* off the end of this leaf */
				node[q] = next[node[q]];
				pos[q] = 0;
				if (node[q] < 0) {
					live &= ~(1u << q);
					continue;
				}
			}
			int at = node[q] * BT_FAN + pos[q];
			if (key[at] > hi[q]) {
				live &= ~(1u << q);
				continue;
			}
			first[q] = cnt[q]++ ? first[q] : at;
			s[q] += (unsigned)val[at];
			pos[q]++;
		}
	}
#pragma unroll
	for (int q = 0; q < QPT; q++) {
		int i = q0 + q * BLOCK;
		if (i < nq) {
			start[i] = first[q];
			count[i] = cnt[q];
			sum[i] = s[q];
		}
	}
}
