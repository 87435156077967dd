#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include "check.h"
namespace cg = cooperative_groups;
__global__ void k(const int *in, int *out)
{
	int v = in[blockIdx.x * blockDim.x + threadIdx.x];
	int c = __syncthreads_count(v & 1);
	int a = __syncthreads_and(v > 0);
	int o = __syncthreads_or(v == 77);
	unsigned m = __match_any_sync(0xffffffff, v % 4);
	int pred;
	unsigned ma = __match_all_sync(0xffffffff, v / 1000, &pred);
	int s = __reduce_add_sync(0xffffffff, v);
	unsigned mx = __reduce_max_sync(0xffffffff, (unsigned)v);
	cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
	int r8 = cg::reduce(t8, v, cg::plus<int>());
	int sc = cg::inclusive_scan(t8, v);
	cg::coalesced_group act = cg::coalesced_threads();
	int o2 = 0;
	if (v & 1) { cg::coalesced_group g = cg::coalesced_threads(); o2 = g.thread_rank() + 1000 * g.size(); }
	int *w = out + (blockIdx.x * blockDim.x + threadIdx.x) * 10;
	w[0] = c; w[1] = a; w[2] = o; w[3] = __popc(m); w[4] = pred + (ma != 0) * 2; w[5] = s; w[6] = mx; w[7] = r8; w[8] = sc; w[9] = o2 + act.size();
}
int main()
{
	const int nb = 4, nt = 128, n = nb * nt;
	Mirror<int> in(n), out(n * 10);
	for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 500 + (i / 128 == 2 ? 0 : 1);
	in[5] = 77;
	in.up();
	k<<<nb, nt>>>(in.d, out.d);
	out.down();
	for (int b = 0; b < nb; b++) {
		int c = 0, a = 1, o = 0;
		for (int t = 0; t < nt; t++) { int v = in[b * nt + t]; c += v & 1; a &= v > 0; o |= v == 77; }
		for (int t = 0; t < nt; t++) {
			int i = b * nt + t, v = in[i], *w = &out[i * 10], l = i & 31, wb = i & ~31;
			EXPECT(w[0] == c && w[1] == a && w[2] == o, "block preds %d: %d %d %d want %d %d %d", i, w[0], w[1], w[2], c, a, o);
			int mm = 0, s = 0, allsame = 1; unsigned mx = 0;
			for (int j = 0; j < 32; j++) { int u = in[wb + j]; mm += (u % 4) == (v % 4); s += u; if ((unsigned)u > mx) mx = u; allsame &= u / 1000 == v / 1000; }
			EXPECT(w[3] == mm, "match_any %d: %d want %d", i, w[3], mm);
			EXPECT(w[4] == allsame * 3, "match_all %d: %d", i, w[4]);
			EXPECT(w[5] == s && w[6] == (int)mx, "reduce %d", i);
			int g8 = i & ~7, r8 = 0, sc = 0;
			for (int j = 0; j < 8; j++) { r8 += in[g8 + j]; if (g8 + j <= i) sc += in[g8 + j]; }
			EXPECT(w[7] == r8 && w[8] == sc, "tile8 %d: %d %d want %d %d", i, w[7], w[8], r8, sc);
			int rank = 0, sz = 0;
			for (int j = 0; j < 32; j++) if (in[wb + j] & 1) { if (j < l) rank++; sz++; }
			int want = (v & 1 ? rank + 1000 * sz : 0) + 32;
			EXPECT(w[9] == want, "coalesced %d: %d want %d", i, w[9], want);
		}
	}
	std::printf("PASS\n");
	return 0;
}
