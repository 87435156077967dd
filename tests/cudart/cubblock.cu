/*
 * cubblock.cu -- CUB's block-level primitives from <cub/cub.cuh> (shipped
 * with the toolkit): cub::BlockReduce (sum and max), cub::BlockScan
 * (inclusive and exclusive sums, with a block aggregate), cub::BlockRadixSort
 * of int keys with float values (4 items per thread), and
 * cub::BlockLoad/BlockStore with warp transposes.  Each block works on its
 * own tile; the host checks every tile with sequential loops.
 */
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <vector>

#include "check.h"

enum { BS = 64, IPT = 4, TILE = BS * IPT, NB = 3 };

__global__ void blockops(const int *in, int *sums, int *maxes, int *incl, int *excl,
                         int *aggs)
{
	typedef cub::BlockReduce<int, BS> Reduce;
	typedef cub::BlockScan<int, BS> Scan;
	__shared__ union {
		typename Reduce::TempStorage reduce;
		typename Scan::TempStorage scan;
	} tmp;
	int t = threadIdx.x, b = blockIdx.x;
	int v = in[b * BS + t];
	int sum = Reduce(tmp.reduce).Sum(v);
	__syncthreads();
	int mx = Reduce(tmp.reduce).Reduce(v, cuda::maximum<int>());
	__syncthreads();
	if (t == 0) {
		sums[b] = sum;
		maxes[b] = mx;
	}
	int inc, exc, agg;
	Scan(tmp.scan).InclusiveSum(v, inc);
	__syncthreads();
	Scan(tmp.scan).ExclusiveSum(v, exc, agg);
	incl[b * BS + t] = inc;
	excl[b * BS + t] = exc;
	if (t == BS - 1) aggs[b] = agg;
}

__global__ void sortk(const int *keys, const float *vals, int *okeys, float *ovals)
{
	typedef cub::BlockLoad<int, BS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadK;
	typedef cub::BlockLoad<float, BS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadV;
	typedef cub::BlockRadixSort<int, BS, IPT, float> Sort;
	typedef cub::BlockStore<int, BS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreK;
	typedef cub::BlockStore<float, BS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreV;
	__shared__ union {
		typename LoadK::TempStorage lk;
		typename LoadV::TempStorage lv;
		typename Sort::TempStorage sort;
		typename StoreK::TempStorage sk;
		typename StoreV::TempStorage sv;
	} tmp;
	int k[IPT];
	float v[IPT];
	int off = blockIdx.x * TILE;
	LoadK(tmp.lk).Load(keys + off, k);
	__syncthreads();
	LoadV(tmp.lv).Load(vals + off, v);
	__syncthreads();
	Sort(tmp.sort).Sort(k, v);
	__syncthreads();
	StoreK(tmp.sk).Store(okeys + off, k);
	__syncthreads();
	StoreV(tmp.sv).Store(ovals + off, v);
}

int main()
{
	std::vector<int> in(NB * BS);
	for (int i = 0; i < NB * BS; i++) in[i] = (i * 7919) % 201 - 100;
	int *din, *dsum, *dmax, *dinc, *dexc, *dagg;
	CHECK(cudaMalloc(&din, NB * BS * sizeof(int)));
	CHECK(cudaMalloc(&dsum, NB * sizeof(int)));
	CHECK(cudaMalloc(&dmax, NB * sizeof(int)));
	CHECK(cudaMalloc(&dagg, NB * sizeof(int)));
	CHECK(cudaMalloc(&dinc, NB * BS * sizeof(int)));
	CHECK(cudaMalloc(&dexc, NB * BS * sizeof(int)));
	CHECK(cudaMemcpy(din, in.data(), NB * BS * sizeof(int), cudaMemcpyHostToDevice));
	blockops<<<NB, BS>>>(din, dsum, dmax, dinc, dexc, dagg);
	CHECK(cudaGetLastError());
	std::vector<int> sum(NB), mx(NB), agg(NB), inc(NB * BS), exc(NB * BS);
	CHECK(cudaMemcpy(sum.data(), dsum, NB * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(mx.data(), dmax, NB * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(agg.data(), dagg, NB * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(inc.data(), dinc, NB * BS * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(exc.data(), dexc, NB * BS * sizeof(int), cudaMemcpyDeviceToHost));
	for (int b = 0; b < NB; b++) {
		int s = 0, m = -1000;
		for (int t = 0; t < BS; t++) {
			int v = in[b * BS + t];
			EXPECT(exc[b * BS + t] == s, "exclusive[%d][%d] = %d, want %d", b, t,
			       exc[b * BS + t], s);
			s += v;
			m = std::max(m, v);
			EXPECT(inc[b * BS + t] == s, "inclusive[%d][%d] = %d, want %d", b, t,
			       inc[b * BS + t], s);
		}
		EXPECT(sum[b] == s && agg[b] == s, "block %d sum %d, aggregate %d, want %d", b,
		       sum[b], agg[b], s);
		EXPECT(mx[b] == m, "block %d max %d, want %d", b, mx[b], m);
	}

	std::vector<int> keys(NB * TILE);
	std::vector<float> vals(NB * TILE);
	for (int i = 0; i < NB * TILE; i++) {
		keys[i] = (int)((i * 2654435761u) % 100000u) - 50000;
		vals[i] = (float)i;
	}
	int *dk, *dok;
	float *dv, *dov;
	CHECK(cudaMalloc(&dk, NB * TILE * sizeof(int)));
	CHECK(cudaMalloc(&dok, NB * TILE * sizeof(int)));
	CHECK(cudaMalloc(&dv, NB * TILE * sizeof(float)));
	CHECK(cudaMalloc(&dov, NB * TILE * sizeof(float)));
	CHECK(cudaMemcpy(dk, keys.data(), NB * TILE * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dv, vals.data(), NB * TILE * sizeof(float), cudaMemcpyHostToDevice));
	sortk<<<NB, BS>>>(dk, dv, dok, dov);
	CHECK(cudaGetLastError());
	std::vector<int> ok(NB * TILE);
	std::vector<float> ov(NB * TILE);
	CHECK(cudaMemcpy(ok.data(), dok, NB * TILE * sizeof(int), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(ov.data(), dov, NB * TILE * sizeof(float), cudaMemcpyDeviceToHost));
	for (int b = 0; b < NB; b++) {
		std::vector<std::pair<int, float>> want;
		for (int i = 0; i < TILE; i++) want.push_back({keys[b * TILE + i], vals[b * TILE + i]});
		std::stable_sort(want.begin(), want.end(),
		                 [](const std::pair<int, float> &x, const std::pair<int, float> &y) {
			                 return x.first < y.first;
		                 });
		for (int i = 0; i < TILE; i++)
			EXPECT(ok[b * TILE + i] == want[i].first && ov[b * TILE + i] == want[i].second,
			       "tile %d item %d: (%d, %g), want (%d, %g)", b, i, ok[b * TILE + i],
			       ov[b * TILE + i], want[i].first, want[i].second);
	}
	std::printf("PASS\n");
	return 0;
}
