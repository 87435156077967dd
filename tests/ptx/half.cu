// half.cu -- half and bfloat16 arithmetic (cuda_fp16.h, cuda_bf16.h).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void halves(__half *h, __half2 *h2, float *f, __nv_bfloat16 *b, __nv_bfloat162 *b2)
{
	int t = threadIdx.x;
	__half a = h[t], c = h[t + 1];
	h[t] = __hadd(a, c) * a - __hdiv(a, c);
	h[t + 2] = __hfma(a, c, __float2half(1.5f));
	h[t + 3] = hsqrt(a) + hexp(c) + __hmax(a, c) + __habs(a) + __hneg(c);
	__half2 x = h2[t], y = h2[t + 1];
	h2[t] = __hfma2(x, y, __hmul2(x, y)) + __h2div(x, y);
	h2[t + 2] = __hmin2(x, y) + h2sqrt(x) + __hadd2_sat(x, y);
	f[t] = __half2float(a) + __low2float(x) + __high2float(y) + (__hlt(a, c) ? 1.f : 0.f);
	f[t + 1] = __hbeq2(x, y) ? 2.f : 3.f;
	__nv_bfloat16 p = b[t], q = b[t + 1];
	b[t] = __hfma(p, q, __float2bfloat16(0.5f)) + __hmax(p, q);
	b2[t] = __hmul2(b2[t], b2[t + 1]) + __hfma2_relu(b2[t], b2[t], b2[t + 1]);
	f[t + 2] = __bfloat162float(p) + (float)__half2int_rn(a) + __half2float(__int2half_rn(t));
	h[t + 4] = __ushort_as_half((unsigned short)t);
	h[t + 5] = __float2half_rz(f[t]) + __double2half((double)f[t]);
}
