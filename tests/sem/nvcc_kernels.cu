// nvcc_kernels.cu -- real nvcc output for test_semantics.py.  The committed
// nvcc_kernels.ptx is, from tests/sem/,
//   nvcc -ptx -arch=sm_80 -O3 -lineinfo nvcc_kernels.cu -o nvcc_kernels.ptx
// with the absolute path in its .file directive cut to the bare file name.
// -lineinfo keeps the .loc/.file directives real PTX usually carries, and
// __launch_bounds__ / #pragma unroll 1 give .maxntid/.minnctapersm and
// .pragma "nounroll"; the cuda_fp16/cuda_bf16 intrinsics give nvcc's
// inline-asm blocks ({ fma.rn.f16x2 ...; } and literals like 0x80008000U).
// Each kernel mixes the idioms nvcc emits (shared-memory tree reductions,
// shuffles, shared+global atomics, intrinsics, 64-bit index arithmetic,
// division by run-time values, predicated code) so the hand-written tests'
// instructions are also seen in the shapes real code has.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// out[b] = sum of in[256b .. 256b+255]; 256 threads per block
__global__ void block_sum(const unsigned *in, unsigned *out)
{
	__shared__ unsigned s[8];
	unsigned v = in[blockIdx.x * 256 + threadIdx.x];
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x < 8) {
		v = s[threadIdx.x];
		for (int o = 4; o > 0; o >>= 1)
			v += __shfl_down_sync(0xffu, v, o);
		if (threadIdx.x == 0) out[blockIdx.x] = v;
	}
}

// 64-bin histogram of the low 6 bits of n bytes; any grid, any block
__global__ void histogram(const unsigned char *in, unsigned *hist, int n)
{
	__shared__ unsigned h[64];
	for (int i = threadIdx.x; i < 64; i += blockDim.x) h[i] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&h[in[i] & 63], 1u);
	__syncthreads();
	for (int i = threadIdx.x; i < 64; i += blockDim.x)
		if (h[i]) atomicAdd(&hist[i], h[i]);
}

// integer idioms on x = in[i]: 8 results per element
__global__ void bitmix(const int *in, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int x = in[i];
	unsigned u = (unsigned)x;
	int d = (i % 7) - 3;                    /* -3..3 */
	if (d == 0) d = 5;
	unsigned *o = out + 8 * i;
	o[0] = __popc(u) + 100u * __clz(u);
	o[1] = __brev(u);
	o[2] = __byte_perm(u, 0x01234567u, 0x5140);
	o[3] = __funnelshift_l(u, 0x89abcdefu, i & 31);
	o[4] = __umulhi(u, 0x9e3779b9u);
	o[5] = (unsigned)(x / d);
	o[6] = (unsigned)(x % d);
	o[7] = (unsigned)((long long)x * (long long)(i - 50) >> 7);
}

// exact float arithmetic: y[i] = 2*x[i] + y[i] (fma), z[i] = sqrt(x*x), w = y/4
__global__ void fexact(const float *x, float *y, float *z, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float xi = x[i];
		y[i] = 2.0f * xi + y[i];
		z[2 * i] = sqrtf(xi * xi);
		z[2 * i + 1] = y[i] / 4.0f;
	}
}

// register pressure: 16 u32, 6 u64 and 4 f64 values live across a loop
// with a per-thread trip count, a divergent branch and a call
__device__ __noinline__ unsigned mixf(unsigned a, unsigned b)
{
	return a * 0x9e3779b1u + (b ^ (a >> 7));
}

__global__ void __launch_bounds__(64, 2) pressure(const unsigned *in,
                                                  unsigned long long *out, int iters)
{
	unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
	unsigned v[16];
	unsigned long long w[6];
	double d[4];
#pragma unroll
	for (int k = 0; k < 16; k++) v[k] = in[(t + k) & 63] + k;
#pragma unroll
	for (int k = 0; k < 6; k++) w[k] = ((unsigned long long)v[k] << 32) | v[15 - k];
#pragma unroll
	for (int k = 0; k < 4; k++) d[k] = (double)v[k + 4] * 0.5;
#pragma unroll 1
	for (int i = 0; i < iters + (int)(t & 3); i++) {
#pragma unroll
		for (int k = 0; k < 16; k++) v[k] = mixf(v[k], v[(k + 1) & 15] + i);
		if (t & 1) {
#pragma unroll
			for (int k = 0; k < 6; k++) w[k] += v[k];
		} else {
#pragma unroll
			for (int k = 0; k < 6; k++) w[k] ^= (unsigned long long)v[k + 6] << (k * 5);
		}
#pragma unroll
		for (int k = 0; k < 4; k++) d[k] = d[k] + (double)(v[k] & 1023);
	}
	unsigned long long s = 0;
	for (int k = 0; k < 16; k++) s = s * 31 + v[k];
	for (int k = 0; k < 6; k++) s = s * 37 + w[k];
	for (int k = 0; k < 4; k++) s = s * 41 + (unsigned long long)d[k];
	out[t] = s;
}

// half and bfloat16 arithmetic through the intrinsics' inline asm
__global__ void halves(__half2 *a, __half *b, __nv_bfloat16 *c, __nv_bfloat162 *d)
{
	a[0] = __hfma2(a[1], a[2], a[3]);
	b[0] = __hadd(b[1], b[2]);
	b[3] = __hmax(b[4], b[5]);
	c[0] = __hfma(c[1], c[2], c[3]);
	d[0] = __hmul2(d[1], d[2]);
	b[6] = __hneg(b[7]);
	c[4] = __float2bfloat16_rn(1.5f + (float)threadIdx.x);
}
