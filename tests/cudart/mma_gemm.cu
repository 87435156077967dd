// mma_gemm.cu -- a GEMM as hand-tuned Ampere kernels write it: tiles copied to padded
// shared memory with cp.async, fragments loaded with ldmatrix, multiplied with inline
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.  D = A B with A (M x K, row-major)
// and B (column-major, i.e. B^T row-major) in half, D in float.  A CTA of four warps
// computes a 32 x 32 tile, each warp 16 x 16 (two m16n8 accumulators), K in steps of
// 16.  Inputs are small multiples of 1/8, so every sum is exact and D must equal the
// CPU's bit for bit.
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>
#include "check.h"

enum { M = 64, N = 64, K = 64, LDS = 24 };   // shared rows padded to 48 bytes

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__global__ void gemm(const half *a, const half *bt, float *d)
{
	__shared__ __align__(16) half as[32 * LDS], bs[32 * LDS];
	int t = threadIdx.x, l = t % 32, w = t / 32, wm = w / 2, wn = w % 2;
	int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
	float acc[2][4] = {};
	for (int k0 = 0; k0 < K; k0 += 16) {
		int c = t % 64, row = c / 2, col = (c % 2) * 8;    // one 16-byte chunk per thread
		const half *src = t < 64 ? a + (m0 + row) * K + k0 + col : bt + (n0 + row) * K + k0 + col;
		half *dst = (t < 64 ? as : bs) + row * LDS + col;
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_addr(dst)),
		             "l"(src));
		asm volatile("cp.async.commit_group;");
		asm volatile("cp.async.wait_group 0;" ::: "memory");
		__syncthreads();
		unsigned fa[4], fb[4];
		const half *pa = as + (wm * 16 + l % 16) * LDS + (l / 16) * 8;
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		             : "=r"(fa[0]), "=r"(fa[1]), "=r"(fa[2]), "=r"(fa[3]) : "r"(smem_addr(pa)));
		// B^T rows n, columns k: matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, ...)
		const half *pb = bs + (wn * 16 + (l & 7) + (l >> 4) * 8) * LDS + ((l >> 3) & 1) * 8;
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		             : "=r"(fb[0]), "=r"(fb[1]), "=r"(fb[2]), "=r"(fb[3]) : "r"(smem_addr(pb)));
		for (int j = 0; j < 2; j++)
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
			             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
			             : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
			             : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[2 * j]),
			               "r"(fb[2 * j + 1]));
		__syncthreads();
	}
	int g = l / 4, q = l % 4;                     // the ISA's c/d layout
	for (int j = 0; j < 2; j++) {
		int r = m0 + wm * 16 + g, cc = n0 + wn * 16 + j * 8 + 2 * q;
		d[r * N + cc] = acc[j][0];
		d[r * N + cc + 1] = acc[j][1];
		d[(r + 8) * N + cc] = acc[j][2];
		d[(r + 8) * N + cc + 1] = acc[j][3];
	}
}

int main()
{
	static half ha[M * K], hb[N * K];
	static float fa[M * K], fb[N * K], hd[M * N];
	for (int i = 0; i < M * K; i++) fa[i] = (float)((i * 7 + 3) % 17 - 8) / 8, ha[i] = fa[i];
	for (int i = 0; i < N * K; i++) fb[i] = (float)((i * 5 + 1) % 13 - 6) / 8, hb[i] = fb[i];
	half *da, *db;
	float *dd;
	CHECK(cudaMalloc(&da, sizeof ha));
	CHECK(cudaMalloc(&db, sizeof hb));
	CHECK(cudaMalloc(&dd, sizeof hd));
	CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));   // hb[n * K + k]
	gemm<<<dim3(N / 32, M / 32), 128>>>(da, db, dd);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < K; k++) s += (double)fa[i * K + k] * fb[j * K + k];
			EXPECT(hd[i * N + j] == (float)s, "d[%d][%d] = %g, want %g", i, j, hd[i * N + j], s);
		}
	std::printf("PASS\n");
	return 0;
}
