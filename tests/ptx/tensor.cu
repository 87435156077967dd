// tensor.cu -- sm_80 tensor cores (wmma, every shape and type rfsim runs) and cp.async
// (__pipeline_memcpy_async, cuda::memcpy_async), for the parser and compiler corpus.
#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void k(const half *a, const half *b, float *c, float alpha) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; i++) fc.x[i] *= alpha;
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void k2(const int *g, int n) {
  __shared__ int s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], 4);
  __pipeline_memcpy_async(&s[threadIdx.x*4 % 256], &g[threadIdx.x], 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  ((int*)g)[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void k3(const double *a, double *c, const __nv_bfloat16 *h, const signed char *q, int *qi, const float *tf) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, a, 4);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::col_major> ha;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> hb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> hc;
  wmma::load_matrix_sync(ha, h, 32);
  wmma::load_matrix_sync(hb, h, 8);
  wmma::fill_fragment(hc, 0.0f);
  wmma::mma_sync(hc, ha, hb, hc);
  wmma::store_matrix_sync((float*)c, hc, 8, wmma::mem_col_major);
  wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> qa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> qb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, int> qc;
  wmma::load_matrix_sync(qa, q, 16);
  wmma::load_matrix_sync(qb, q, 16);
  wmma::fill_fragment(qc, 0);
  wmma::mma_sync(qc, qa, qb, qc, true);
  wmma::store_matrix_sync(qi, qc, 32, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
  wmma::load_matrix_sync(ta, tf, 8);
  wmma::load_matrix_sync(tb, tf, 16);
  for (int i = 0; i < ta.num_elements; i++) ta.x[i] = wmma::__float_to_tf32(ta.x[i]);
  wmma::fill_fragment(tc, 0.0f);
  wmma::mma_sync(tc, ta, tb, tc);
  wmma::store_matrix_sync((float*)c, tc, 16, wmma::mem_row_major);
}
#include <cuda/pipeline>
#include <cooperative_groups.h>
__global__ void k4(const float *g, float *out, int n) {
  __shared__ float s[2][128];
  auto block = cooperative_groups::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float acc = 0;
  for (int t = 0; t < n; t++) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[t & 1][threadIdx.x], &g[t * 128 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    acc += s[t & 1][threadIdx.x];
    pipe.consumer_release();
  }
  out[threadIdx.x] = acc;
}
__global__ void k5(const int4 *g, int4 *out, int n) {
  __shared__ int4 s[128];
  if (threadIdx.x < n) __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], 16, 16 - threadIdx.x % 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
}
