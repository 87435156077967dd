/*
 * mum.cu -- exact matching of short reads against a reference genome
 * through its suffix array (the task of MUMmerGPU, which walks a suffix
 * tree; written afresh with a suffix array).
 *
 * For every read and every start position s in it, mum_match finds, by
 * binary search over the suffix array sa of the reference, the rank of
 * the first suffix not smaller than the read's tail q = read[s..len)
 * (its insertion point), and the length of the longest prefix of q that
 * occurs anywhere in the reference, which is the longer of its common
 * prefixes with the suffixes either side of that point.  The comparison
 * at each step skips the characters both current bounds are known to
 * share with q (the mlr heuristic of Manber and Myers), then compares
 * byte by byte: a loop whose length depends on the data, as does the
 * direction of every step.
 *
 * One thread per read.  The read (bases coded 0-3) is packed into one
 * 64-bit register, two bits per base, so its characters come from shifts
 * while the reference's come from byte loads.  Start positions are taken
 * NS = 4 at a time, their searches advanced in lockstep until all have
 * converged, so four searches' bounds, common-prefix lengths and bounding
 * suffixes are live together (when npos is not a multiple of NS, the
 * last round runs with lanes idle).
 */

#define BLOCK 128
#define MAXLEN 32          /* longest read: 64 bits of packed bases */
#define NS 4             /* start positions searched together */

struct Search {
	int lo, hi;            /* the answer lies in [lo, hi] */
	int llcp, hlcp;        /* common prefix of q with sa[lo-1] and with sa[hi] */
	int lpos, hpos;        /* sa[lo-1] and sa[hi] (-1: none) */
};

/* one binary-search step for q = read[s..len) (packed in qw) */
__device__ __forceinline__ void step(struct Search &st, const unsigned char *__restrict__ ref,
                                     int nr, const int *__restrict__ sa,
                                     unsigned long long qw, int s, int len)
{
	int mid = (st.lo + st.hi) >> 1, p = sa[mid], m = len - s;
	int k = min(st.llcp, st.hlcp);
	int rc = 0, qc = 0;

	while (k < m && p + k < nr) {
		rc = ref[p + k];
		qc = (int)(qw >> (2 * (s + k))) & 3;
		if (rc != qc)
			break;
		k++;
	}
	if (k == m || (p + k < nr && rc > qc)) {    /* suffix >= q */
		st.hi = mid;
		st.hlcp = k;
		st.hpos = p;
	} else {                                     /* suffix < q */
		st.lo = mid + 1;
		st.llcp = k;
		st.lpos = p;
	}
}

/* for start positions s < npos of each read r (reads of `len` bases, so
 * len - npos + 1 is the shortest tail), at i = r * npos + s: rank[i], the
 * insertion point of the tail among the suffixes; mlen[i], the length of
 * its longest match; mpos[i], a reference position where that match
 * starts (the suffix after the insertion point if its match is at least
 * as long as the one before, -1 where there is no such suffix) */
extern "C" __global__ void __launch_bounds__(BLOCK)
mum_match(const unsigned char *__restrict__ ref, int nr, const int *__restrict__ sa,
          const unsigned char *__restrict__ reads, int nreads, int len, int npos,
          int *__restrict__ rank, int *__restrict__ mlen, int *__restrict__ mpos)
{
	int r = blockIdx.x * BLOCK + threadIdx.x;
	unsigned long long qw = 0;

	if (r >= nreads)
		return;
	for (int i = 0; i < len; i++)
		qw |= (unsigned long long)(reads[(size_t)r * len + i] & 3) << (2 * i);
	for (int s = 0; s < npos; s += NS) {
		struct Search st[NS];
		bool any = true;
#pragma unroll
		for (int j = 0; j < NS; j++)   /* lanes past npos start converged */
			st[j] = Search{ 0, s + j < npos ? nr : 0, 0, 0, -1, -1 };
		while (any) {
			any = false;
#pragma unroll
			for (int j = 0; j < NS; j++)
				if (st[j].lo < st[j].hi) {
					step(st[j], ref, nr, sa, qw, s + j, len);
					any = true;
				}
		}
#pragma unroll
		for (int j = 0; j < NS; j++) {
			int i = r * npos + s + j;
			if (s + j < npos) {
				rank[i] = st[j].lo;
				mlen[i] = max(st[j].llcp, st[j].hlcp);
				mpos[i] = st[j].hlcp >= st[j].llcp ? st[j].hpos : st[j].lpos;
			}
		}
	}
}
