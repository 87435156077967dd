// wmma_gemm.cu -- a tiled tensor-core GEMM through <mma.h>: D = alpha * A B + beta * C
// with A (row-major) and B (column-major) in half, C and D in float.  Each warp
// computes one 16x16 tile of D, walking K in steps of 16; the accumulator is
// scaled element-wise and the C tile (loaded with the same layout) added
// element-wise, as CUDA's wmma API allows.  Inputs are small multiples of 1/8,
// so every product and sum is exact and the result must equal the CPU's.
#include <cstdio>
#include <mma.h>
#include <cuda_fp16.h>
#include "check.h"

using namespace nvcuda;

enum { M = 64, N = 48, K = 64 };

__global__ void gemm(const half *a, const half *b, const float *c, float *d, float alpha,
                     float beta)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int tm = warp / (N / 16), tn = warp % (N / 16);
	if (tm >= M / 16) return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
		wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	wmma::load_matrix_sync(fc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
	for (int i = 0; i < acc.num_elements; i++) acc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
	wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

int main()
{
	static half ha[M * K], hb[K * N];
	static float fa[M * K], fb[K * N], hc[M * N], hd[M * N];
	for (int i = 0; i < M * K; i++) fa[i] = (float)((i * 7 + 3) % 17 - 8) / 8, ha[i] = fa[i];
	for (int i = 0; i < K * N; i++) fb[i] = (float)((i * 5 + 1) % 13 - 6) / 8, hb[i] = fb[i];
	for (int i = 0; i < M * N; i++) hc[i] = (float)(i % 11 - 5);
	half *da, *db;
	float *dc, *dd;
	CHECK(cudaMalloc(&da, sizeof ha));
	CHECK(cudaMalloc(&db, sizeof hb));
	CHECK(cudaMalloc(&dc, sizeof hc));
	CHECK(cudaMalloc(&dd, sizeof hd));
	CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));   // b[n * K + k]: col-major
	CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
	float alpha = 2.0f, beta = -0.5f;
	int warps = (M / 16) * (N / 16);
	gemm<<<(warps * 32 + 127) / 128, 128>>>(da, db, dc, dd, alpha, beta);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < K; k++) s += (double)fa[i * K + k] * fb[j * K + k];
			double want = alpha * s + beta * hc[i * N + j];
			EXPECT(hd[i * N + j] == (float)want, "d[%d][%d] = %g, want %g", i, j,
			       hd[i * N + j], want);
		}
	std::printf("PASS\n");
	return 0;
}
