/*
 * reduce_t.cu -- reductions as the CUDA samples' reduction and
 * cg-based codes write them: a templated kernel over int, float and
 * double with `extern __shared__` memory of the template's type (the
 * SharedMemory<T> idiom), a block reduction finished by warps with
 * __reduce_add_sync (int) and __shfl_down_sync (float, double),
 * cooperative_groups' cg::reduce with cg::plus and cg::greater over a
 * tiled_partition<32>, cg::labeled_partition by key and
 * cg::binary_partition, cg::inclusive_scan/exclusive_scan in a tile,
 * tiled_partition<128> and <64> (tiles wider than a warp: their scratch is
 * NVIDIA's reserved shared memory) synced and reduced, and a grid-stride
 * first pass.  Integers exact; floating point within the
 * reordering error of pairwise sums.
 */
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cmath>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
	__device__ T *get()
	{
		extern __shared__ unsigned char smem_raw[];
		return reinterpret_cast<T *>(smem_raw);
	}
};

template <class T> __device__ T warp_sum(T v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}
template <> __device__ int warp_sum<int>(int v)
{
	return __reduce_add_sync(0xffffffffu, v);
}

template <class T, unsigned BLOCK>
__global__ void reduce(const T *in, T *out, int n)
{
	T *s = SharedMemory<T>().get();
	T acc = 0;
	for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned st = BLOCK / 2; st >= 32; st >>= 1) {
		if (threadIdx.x < st) s[threadIdx.x] = acc = acc + s[threadIdx.x + st];
		__syncthreads();
	}
	if (threadIdx.x < 32) {
		acc = warp_sum(acc);
		if (threadIdx.x == 0) out[blockIdx.x] = acc;
	}
}

__global__ void cgk(const int *in, int *out, int n)
{
	cg::thread_block b = cg::this_thread_block();
	auto tile = cg::tiled_partition<32>(b);
	int i = b.group_index().x * b.size() + b.thread_rank();
	int v = i < n ? in[i] : 0;
	int sum = cg::reduce(tile, v, cg::plus<int>());
	int mx = cg::reduce(tile, v, cg::greater<int>());
	int inc = cg::inclusive_scan(tile, v);
	int exc = cg::exclusive_scan(tile, v, cg::bit_xor<int>());
	/* partition by key: lanes with equal v % 3 */
	auto lab = cg::labeled_partition(tile, v % 3);
	int lsum = cg::reduce(lab, v, cg::plus<int>());
	auto bin = cg::binary_partition(tile, v < 0);
	int bcount = (int)bin.size();
	int *o = out + (size_t)i * 7;
	o[0] = sum, o[1] = mx, o[2] = inc, o[3] = exc, o[4] = lsum, o[5] = bcount;
	o[6] = (int)lab.thread_rank();
}

/* tiles wider than a warp: their sync and reduce go through NVIDIA's reserved shared
 * memory (%reserved_smem_offset_1), beside the kernel's own shared memory */
__global__ void bigtile(const int *in, int *out)
{
	__shared__ int user[8];
	auto block = cg::this_thread_block();
	auto tile = cg::tiled_partition<128>(block);
	auto t64 = cg::tiled_partition<64>(block);
	if (threadIdx.x < 8) user[threadIdx.x] = 1000 * (int)threadIdx.x;
	tile.sync();
	int v = in[blockIdx.x * blockDim.x + threadIdx.x] + user[threadIdx.x & 7];
	int s = cg::reduce(tile, v, cg::plus<int>());
	t64.sync();
	int m = cg::reduce(t64, v, cg::greater<int>());
	if (tile.thread_rank() == 0) out[2 * (blockIdx.x * 2 + tile.meta_group_rank())] = s;
	if (t64.thread_rank() == 0) out[2 * (blockIdx.x * 4 + t64.meta_group_rank()) + 1] = m;
}

template <class T> static T run_reduce(const std::vector<T> &h, int blocks)
{
	T *din, *dout;
	CHECK(cudaMalloc(&din, h.size() * sizeof(T)));
	CHECK(cudaMalloc(&dout, blocks * sizeof(T)));
	CHECK(cudaMemcpy(din, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
	reduce<T, 256><<<blocks, 256, 256 * sizeof(T)>>>(din, dout, (int)h.size());
	CHECK(cudaGetLastError());
	reduce<T, 128><<<1, 128, 128 * sizeof(T)>>>(dout, dout, blocks);
	CHECK(cudaGetLastError());
	T r;
	CHECK(cudaMemcpy(&r, dout, sizeof(T), cudaMemcpyDeviceToHost));
	CHECK(cudaFree(din));
	CHECK(cudaFree(dout));
	return r;
}

int main()
{
	const int n = 100003;
	std::vector<int> vi(n);
	std::vector<float> vf(n);
	std::vector<double> vd(n);
	long long si = 0;
	double sf = 0, sd = 0, af = 0;
	for (int i = 0; i < n; i++) {
		vi[i] = (int)((i * 2654435761u) >> 20) - 2048;
		vf[i] = (float)vi[i] / 64.0f + 0.001f * (i % 7);
		vd[i] = std::sin(i * 0.001) * 1e3;
		si += vi[i], sf += vf[i], sd += vd[i], af += std::fabs(vf[i]);
	}
	int gi = run_reduce(vi, 40);
	float gf = run_reduce(vf, 40);
	double gd = run_reduce(vd, 40);
	EXPECT(gi == (int)si, "int sum %d, want %lld", gi, si);
	/* float: n terms, relative error of a reordered sum <= n eps sum|x| (loose) */
	EXPECT(std::fabs(gf - sf) < 1e-5 * af + 1e-3, "float sum %.6f, want %.6f", gf, sf);
	EXPECT(std::fabs(gd - sd) < 1e-9 * (1 + std::fabs(sd)), "double sum %.12f, want %.12f", gd, sd);

	const int m = 512;
	int *din, *dout;
	std::vector<int> in(m);
	for (int i = 0; i < m; i++) in[i] = (i * 37) % 101 - 50;
	CHECK(cudaMalloc(&din, m * sizeof(int)));
	CHECK(cudaMalloc(&dout, m * 7 * sizeof(int)));
	CHECK(cudaMemcpy(din, in.data(), m * sizeof(int), cudaMemcpyHostToDevice));
	cgk<<<m / 128, 128>>>(din, dout, m);
	CHECK(cudaGetLastError());
	std::vector<int> out(m * 7);
	CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
	for (int w = 0; w < m / 32; w++) {
		int sum = 0, mx = -1000, inc = 0, exc = 0;
		for (int l = 0; l < 32; l++) sum += in[w * 32 + l], mx = std::max(mx, in[w * 32 + l]);
		for (int l = 0; l < 32; l++) {
			int i = w * 32 + l, v = in[i], key = v % 3, lsum = 0, rank = 0, bc = 0;
			inc += v;
			for (int j = 0; j < 32; j++) {
				int u = in[w * 32 + j];
				if (u % 3 == key) lsum += u, rank += j < l;
				bc += (u < 0) == (v < 0);
			}
			int want[7] = {sum, mx, inc, exc, lsum, bc, rank};
			for (int k = 0; k < 7; k++)
				EXPECT(out[i * 7 + k] == want[k], "cg thread %d field %d: %d, want %d", i,
				       k, out[i * 7 + k], want[k]);
			exc ^= v;
		}
	}
	int *dbt;
	CHECK(cudaMalloc(&dbt, 16 * sizeof(int)));
	CHECK(cudaMemset(dbt, 0, 16 * sizeof(int)));
	bigtile<<<2, 256>>>(din, dbt);
	CHECK(cudaGetLastError());
	int bt[16];
	CHECK(cudaMemcpy(bt, dbt, sizeof bt, cudaMemcpyDeviceToHost));
	for (int b = 0; b < 2; b++)
		for (int k = 0; k < 4; k++) {
			int sum = 0, mx = -1 << 30;
			for (int t = 64 * k; t < 64 * k + 64; t++) {
				int v = in[b * 256 + t] + 1000 * (t & 7);
				sum += v, mx = std::max(mx, v);
			}
			if (k % 2 == 0) {
				for (int t = 64 * k + 64; t < 64 * k + 128; t++)
					sum += in[b * 256 + t] + 1000 * (t & 7);
				EXPECT(bt[2 * (b * 2 + k / 2)] == sum, "128-thread tile %d of block %d: "
				       "%d, want %d", k / 2, b, bt[2 * (b * 2 + k / 2)], sum);
			}
			EXPECT(bt[2 * (b * 4 + k) + 1] == mx, "64-thread tile %d of block %d: max %d, "
			       "want %d", k, b, bt[2 * (b * 4 + k) + 1], mx);
		}
	std::printf("PASS\n");
	return 0;
}
