// memcpy_async.cu -- double-buffered copies from global to shared memory with
// cp.async: __pipeline_memcpy_async (cuda_pipeline.h, wait_prior(1) keeps one
// stage in flight) and cuda::memcpy_async on a cuda::pipeline (cuda/pipeline).
// Each block sums its column of tiles; the CPU checks every sum.
#include <cstdio>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include "check.h"

enum { T = 128, TILES = 12, BLOCKS = 3 };

// stage t + 1 is copied while tile t is summed
__global__ void sum_prim(const float4 *g, float *out)
{
	__shared__ float4 s[2][T];
	const float4 *src = g + (size_t)blockIdx.x * TILES * T;
	float acc = 0;
	__pipeline_memcpy_async(&s[0][threadIdx.x], &src[threadIdx.x], sizeof(float4));
	__pipeline_commit();
	for (int t = 0; t < TILES; t++) {
		if (t + 1 < TILES)
			__pipeline_memcpy_async(&s[(t + 1) & 1][threadIdx.x],
			                        &src[(t + 1) * T + threadIdx.x], sizeof(float4));
		__pipeline_commit();
		__pipeline_wait_prior(1);
		__syncthreads();
		float4 v = s[t & 1][(threadIdx.x + 1) % T];     // a neighbour's copy
		acc += v.x + v.y + v.z + v.w;
		__syncthreads();
	}
	out[blockIdx.x * T + (threadIdx.x + 1) % T] = acc;
}

__global__ void sum_pipe(const float *g, float *out)
{
	__shared__ float s[2][T];
	const float *src = g + (size_t)blockIdx.x * TILES * T;
	cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
	float acc = 0;
	for (int t = 0; t < TILES; t++) {
		pipe.producer_acquire();
		cuda::memcpy_async(&s[t & 1][threadIdx.x], &src[t * T + threadIdx.x], sizeof(float),
		                   pipe);
		pipe.producer_commit();
		cuda::pipeline_consumer_wait_prior<0>(pipe);
		acc += s[t & 1][threadIdx.x];
		pipe.consumer_release();
	}
	out[blockIdx.x * T + threadIdx.x] = acc;
}

int main()
{
	static float h4[BLOCKS * TILES * T * 4], h1[BLOCKS * TILES * T], o[BLOCKS * T];
	for (int i = 0; i < BLOCKS * TILES * T * 4; i++) h4[i] = (float)(i % 29);
	for (int i = 0; i < BLOCKS * TILES * T; i++) h1[i] = (float)(i % 31) - 7;
	float *d4, *d1, *dout;
	CHECK(cudaMalloc(&d4, sizeof h4));
	CHECK(cudaMalloc(&d1, sizeof h1));
	CHECK(cudaMalloc(&dout, sizeof o));
	CHECK(cudaMemcpy(d4, h4, sizeof h4, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice));
	sum_prim<<<BLOCKS, T>>>((const float4 *)d4, dout);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
	for (int b = 0; b < BLOCKS; b++)
		for (int i = 0; i < T; i++) {
			float want = 0;
			for (int t = 0; t < TILES; t++)
				for (int c = 0; c < 4; c++) want += h4[((b * TILES + t) * T + i) * 4 + c];
			EXPECT(o[b * T + i] == want, "sum_prim[%d][%d] = %g, want %g", b, i,
			       o[b * T + i], want);
		}
	sum_pipe<<<BLOCKS, T>>>(d1, dout);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
	for (int b = 0; b < BLOCKS; b++)
		for (int i = 0; i < T; i++) {
			float want = 0;
			for (int t = 0; t < TILES; t++) want += h1[(b * TILES + t) * T + i];
			EXPECT(o[b * T + i] == want, "sum_pipe[%d][%d] = %g, want %g", b, i,
			       o[b * T + i], want);
		}
	std::printf("PASS\n");
	return 0;
}
