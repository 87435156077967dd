/*
 * warpcg.cu -- warp-level primitives and cooperative groups: __shfl_sync,
 * __shfl_up/down/xor_sync with widths 8, 16 and 32 and on 64-bit and
 * double values, __ballot_sync, __any_sync, __all_sync, __activemask in
 * a divergent branch, __match_any_sync, __match_all_sync,
 * __reduce_add/min/max/and/or/xor_sync, cooperative_groups' thread_block
 * (sync, thread_rank), tiled_partition<16> and tiled_partition(block, 8)
 * with shfl_down and cg::reduce, a block reduction in volatile shared
 * memory, __threadfence with a last-block-done counter, __ldg, and a
 * grid-stride loop with 64-bit indices.
 */
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "check.h"

namespace cg = cooperative_groups;

enum { NW = 24 };

__global__ void warpk(const int *in, int *out, long long *o64, double *od)
{
	int t = threadIdx.x, lane = t % 32;
	int v = in[blockIdx.x * blockDim.x + t];
	int *o = out + (size_t)(blockIdx.x * blockDim.x + t) * NW;
	o[0] = __shfl_sync(0xffffffffu, v, (lane * 5 + 3) % 32);
	o[1] = __shfl_sync(0xffffffffu, v, lane + 3, 16);
	o[2] = __shfl_up_sync(0xffffffffu, v, 3);
	o[3] = __shfl_up_sync(0xffffffffu, v, 2, 8);
	o[4] = __shfl_down_sync(0xffffffffu, v, 5);
	o[5] = __shfl_down_sync(0xffffffffu, v, 1, 16);
	o[6] = __shfl_xor_sync(0xffffffffu, v, 6);
	o[7] = __shfl_xor_sync(0xffffffffu, v, 9, 8);
	o[8] = (int)__ballot_sync(0xffffffffu, v & 1);
	o[9] = __any_sync(0xffffffffu, v == 1000) + 2 * __all_sync(0xffffffffu, v >= 0) +
	       4 * __all_sync(0xffffffffu, v > 50);
	unsigned am = 0;
	if (v % 3 == 0) am = __activemask();
	o[10] = (int)am;
	o[11] = (int)__match_any_sync(0xffffffffu, v % 4);
	int pred = 0;
	o[12] = (int)__match_all_sync(0xffffffffu, v / 1000, &pred);
	o[13] = pred;
	o[14] = (int)__reduce_add_sync(0xffffffffu, (unsigned)v);
	o[15] = __reduce_min_sync(0xffffffffu, v - 40);
	o[16] = __reduce_max_sync(0xffffffffu, v);
	o[17] = (int)__reduce_and_sync(0xffffffffu, (unsigned)v | 0x100u);
	o[18] = (int)__reduce_or_sync(0xffffffffu, (unsigned)v);
	o[19] = (int)__reduce_xor_sync(0xffffffffu, (unsigned)v);
	long long w = (long long)v << 35 | lane;
	o64[blockIdx.x * blockDim.x + t] = __shfl_down_sync(0xffffffffu, w, 7);
	od[blockIdx.x * blockDim.x + t] = __shfl_xor_sync(0xffffffffu, v * 0.5, 4);
	// a partial mask: only the even lanes take part
	if (lane % 2 == 0) o[20] = __shfl_sync(0x55555555u, v, (lane + 2) % 32);
	else o[20] = -1;
	o[21] = o[22] = o[23] = 0;
}

__global__ void cgk(const int *in, int *out, int *blocksum, unsigned *done, int *total)
{
	cg::thread_block block = cg::this_thread_block();
	int r = block.thread_rank();
	int v = __ldg(&in[blockIdx.x * blockDim.x + r]);
	cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
	int s = v;
	for (int off = t16.size() / 2; off > 0; off /= 2) s += t16.shfl_down(s, off);
	cg::thread_group t8 = cg::tiled_partition(block, 8);
	int red = cg::reduce(t16, v, cg::plus<int>());
	int mx = cg::reduce(t16, v, cg::greater<int>());
	int *o = out + (size_t)(blockIdx.x * blockDim.x + r) * 5;
	o[0] = t16.thread_rank() == 0 ? s : -7;
	o[1] = red;
	o[2] = mx;
	o[3] = (int)t8.thread_rank() + 100 * (int)t8.size();
	__shared__ volatile int sm[256];
	sm[r] = v;
	block.sync();
	for (int k = blockDim.x / 2; k > 32; k /= 2) {
		if (r < k) sm[r] += sm[r + k];
		block.sync();
	}
	if (r < 32) {        // the classic volatile warp-synchronous tail
		int x = sm[r] + sm[r + 32];
		__syncwarp();
		sm[r] = x;
		__syncwarp();
		for (int k = 16; k > 0; k /= 2) {
			if (r < k) x = sm[r] + sm[r + k];
			__syncwarp();
			if (r < k) sm[r] = x;
			__syncwarp();
		}
	}
	block.sync();
	o[4] = sm[0];
	if (r == 0) {
		blocksum[blockIdx.x] = sm[0];
		__threadfence();
		unsigned ticket = atomicAdd(done, 1u);
		if (ticket == gridDim.x - 1) {     // the last block sums every block's result
			int t = 0;
			for (unsigned b = 0; b < gridDim.x; b++) t += ((volatile int *)blocksum)[b];
			*total = t;
		}
	}
}

__global__ void gridstride(const float *x, float *y, long long n, float a)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
	     i += (long long)gridDim.x * blockDim.x)
		y[i] = a * x[i] + y[i] * (float)(i & 7);
}

int main()
{
	const int nb = 3, bs = 128, n = nb * bs;
	int hin[n];
	for (int i = 0; i < n; i++) hin[i] = (i * 73 + 11) % 200 + (i % 37 == 0 ? 1000 - (i * 73 + 11) % 200 : 0);
	int *din, *dout;
	long long *d64;
	double *dd;
	CHECK(cudaMalloc(&din, sizeof hin));
	CHECK(cudaMalloc(&dout, n * NW * sizeof(int)));
	CHECK(cudaMalloc(&d64, n * sizeof(long long)));
	CHECK(cudaMalloc(&dd, n * sizeof(double)));
	CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
	warpk<<<nb, bs>>>(din, dout, d64, dd);
	CHECK(cudaGetLastError());
	int *out = new int[n * NW];
	long long h64[n];
	double hd[n];
	CHECK(cudaMemcpy(out, dout, n * NW * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(h64, d64, sizeof h64, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int wb = 0; wb < n; wb += 32) {
		const int *v = hin + wb;
		unsigned ballot = 0, mod3 = 0;
		int any = 0, all0 = 1, all50 = 1, sum = 0, mn = 1 << 30, mx = -(1 << 30);
		unsigned an = ~0u, orr = 0, xr = 0;
		for (int l = 0; l < 32; l++) {
			ballot |= (unsigned)(v[l] & 1) << l;
			mod3 |= (unsigned)(v[l] % 3 == 0) << l;
			any |= v[l] == 1000;
			all0 &= v[l] >= 0;
			all50 &= v[l] > 50;
			sum += v[l];
			mn = v[l] - 40 < mn ? v[l] - 40 : mn;
			mx = v[l] > mx ? v[l] : mx;
			an &= (unsigned)v[l] | 0x100u;
			orr |= (unsigned)v[l];
			xr ^= (unsigned)v[l];
		}
		int allsame = 1;
		for (int l = 1; l < 32; l++) allsame &= v[l] / 1000 == v[0] / 1000;
		for (int l = 0; l < 32; l++) {
			int want[NW] = {0};
			want[0] = v[(l * 5 + 3) % 32];
			want[1] = v[(l & ~15) + (l + 3) % 16];
			want[2] = l >= 3 ? v[l - 3] : v[l];
			want[3] = l % 8 >= 2 ? v[l - 2] : v[l];
			want[4] = l + 5 < 32 ? v[l + 5] : v[l];
			want[5] = l % 16 + 1 < 16 ? v[l + 1] : v[l];
			want[6] = v[l ^ 6];
			want[7] = (l ^ 9) <= ((l & 24) | 7) ? v[l ^ 9] : v[l];  // later groups: own value
			want[8] = (int)ballot;
			want[9] = any + 2 * all0 + 4 * all50;
			want[10] = v[l] % 3 == 0 ? (int)mod3 : 0;
			unsigned mm = 0;
			for (int k = 0; k < 32; k++) mm |= (unsigned)(v[k] % 4 == v[l] % 4) << k;
			want[11] = (int)mm;
			want[12] = allsame ? -1 : 0;
			want[13] = allsame;
			want[14] = sum, want[15] = mn, want[16] = mx;
			want[17] = (int)an, want[18] = (int)orr, want[19] = (int)xr;
			want[20] = l % 2 == 0 ? v[(l + 2) % 32] : -1;
			for (int k = 0; k < NW; k++)
				if (out[(wb + l) * NW + k] != want[k] && bad++ < 20)
					std::fprintf(stderr, "warp op %d, thread %d: got %d (%#x), want %d (%#x)\n",
					             k, wb + l, out[(wb + l) * NW + k],
					             out[(wb + l) * NW + k], want[k], want[k]);
			int src = l + 7 < 32 ? l + 7 : l;
			long long w64 = (long long)v[src] << 35 | src;
			if (h64[wb + l] != w64 && bad++ < 20)
				std::fprintf(stderr, "64-bit shfl, thread %d: got %llx, want %llx\n", wb + l,
				             h64[wb + l], w64);
			if (hd[wb + l] != v[l ^ 4] * 0.5 && bad++ < 20)
				std::fprintf(stderr, "double shfl, thread %d: got %g\n", wb + l, hd[wb + l]);
		}
	}
	EXPECT(bad == 0, "%d warp results differ", bad);

	int *dbs, *dtot;
	unsigned *ddone;
	CHECK(cudaMalloc(&dbs, nb * sizeof(int)));
	CHECK(cudaMalloc(&dtot, sizeof(int)));
	CHECK(cudaMalloc(&ddone, sizeof(unsigned)));
	CHECK(cudaMemset(ddone, 0, sizeof(unsigned)));
	cgk<<<nb, bs>>>(din, dout, dbs, ddone, dtot);
	CHECK(cudaGetLastError());
	int tot;
	CHECK(cudaMemcpy(out, dout, n * 5 * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(&tot, dtot, sizeof tot, cudaMemcpyDeviceToHost));
	int all = 0;
	for (int b = 0; b < nb; b++) {
		int bsum = 0;
		for (int r = 0; r < bs; r++) bsum += hin[b * bs + r];
		all += bsum;
		for (int r = 0; r < bs; r++) {
			int g = b * bs + r, t0 = g & ~15, s16 = 0, m16 = -1;
			for (int k = 0; k < 16; k++) {
				s16 += hin[t0 + k];
				m16 = hin[t0 + k] > m16 ? hin[t0 + k] : m16;
			}
			int want[5] = {r % 16 == 0 ? s16 : -7, s16, m16, r % 8 + 800, bsum};
			for (int k = 0; k < 5; k++)
				if (out[g * 5 + k] != want[k] && bad++ < 20)
					std::fprintf(stderr, "cg op %d, thread %d: got %d, want %d\n", k, g,
					             out[g * 5 + k], want[k]);
		}
	}
	EXPECT(bad == 0, "%d cooperative-groups results differ", bad);
	EXPECT(tot == all, "last-block total %d, want %d", tot, all);

	const long long m = 5000;
	float *hx = new float[m], *hy = new float[m], *dx, *dy;
	for (long long i = 0; i < m; i++) hx[i] = 0.5f * (float)(i % 100), hy[i] = 1.0f + (float)(i % 3);
	CHECK(cudaMalloc(&dx, m * sizeof(float)));
	CHECK(cudaMalloc(&dy, m * sizeof(float)));
	CHECK(cudaMemcpy(dx, hx, m * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dy, hy, m * sizeof(float), cudaMemcpyHostToDevice));
	gridstride<<<4, 96>>>(dx, dy, m, 2.0f);
	CHECK(cudaGetLastError());
	float *gy = new float[m];
	CHECK(cudaMemcpy(gy, dy, m * sizeof(float), cudaMemcpyDeviceToHost));
	for (long long i = 0; i < m; i++) {
		float want = 2.0f * hx[i] + hy[i] * (float)(i & 7);
		EXPECT(gy[i] == want, "y[%lld] = %g, want %g", i, gy[i], want);
	}
	std::printf("PASS\n");
	return 0;
}
