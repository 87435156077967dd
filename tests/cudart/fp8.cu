// FP8 (cuda_fp8.h) and bf16x2 arithmetic checked against the headers' host conversions:
// on sm_89+ the conversions are cvt.rn.satfinite.e4m3x2/e5m2x2 and cvt.rn.f16x2.e4m3x2
#include <cuda_fp8.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include "check.h"
__global__ void k(const float *in, unsigned *o8, float *back, float *bf, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float x = in[i], y = in[(i + 1) % n];
	__nv_fp8_e4m3 a(x);
	__nv_fp8_e5m2 b(x);
	__nv_fp8x2_e4m3 p(make_float2(x, y));
	o8[i] = (unsigned)a.__x | (unsigned)b.__x << 8 | (unsigned)p.__x << 16;
	back[i * 3 + 0] = (float)a;
	back[i * 3 + 1] = (float)b;
	float2 q = (float2)p;
	back[i * 3 + 2] = q.x + q.y;
	__nv_bfloat162 u = __floats2bfloat162_rn(x, y), v = __floats2bfloat162_rn(y, 2.0f);
	__nv_bfloat162 w = __hfma2(u, v, u);
	__nv_bfloat162 z = __hadd2(u, v) * v;
	bf[i * 4 + 0] = __low2float(w); bf[i * 4 + 1] = __high2float(w);
	bf[i * 4 + 2] = __low2float(z); bf[i * 4 + 3] = __high2float(z);
}
int main()
{
	const int n = 256;
	Mirror<float> in(n), back(n * 3), bf(n * 4);
	Mirror<unsigned> o8(n);
	for (int i = 0; i < n; i++) in[i] = (i - 128) * 3.7f + (i % 7) * 0.013f;
	in[0] = 1e6f; in[1] = -1e-8f; in[2] = 448.0f; in[3] = 0.0f / 0.0f;
	in.up();
	k<<<2, 128>>>(in.d, o8.d, back.d, bf.d, n);
	o8.down(), back.down(), bf.down();
	// host reference from the same headers (their host paths)
	for (int i = 0; i < n; i++) {
		float x = in[i], y = in[(i + 1) % n];
		__nv_fp8_e4m3 a(x); __nv_fp8_e5m2 b(x); __nv_fp8x2_e4m3 p(make_float2(x, y));
		unsigned w8 = (unsigned)a.__x | (unsigned)b.__x << 8 | (unsigned)p.__x << 16;
		EXPECT(o8[i] == w8, "fp8 %d (x %g y %g): %08x want %08x", i, x, y, o8[i], w8);
		float2 q = (float2)p;
		float want[3] = {(float)a, (float)b, q.x + q.y};
		for (int j = 0; j < 3; j++) EXPECT(back[i * 3 + j] == want[j] || (want[j] != want[j] && back[i * 3 + j] != back[i * 3 + j]), "back %d %d: %g want %g", i, j, back[i * 3 + j], want[j]);
		__nv_bfloat162 u = __floats2bfloat162_rn(x, y), v = __floats2bfloat162_rn(y, 2.0f);
		float ul = __low2float(u), uh = __high2float(u), vl = __low2float(v), vh = __high2float(v);
		float wl = __bfloat162float(__float2bfloat16_rn(fmaf(ul, vl, ul))), wh = __bfloat162float(__float2bfloat16_rn(fmaf(uh, vh, uh)));
		EXPECT((bf[i * 4] == wl || (wl != wl)) && (bf[i * 4 + 1] == wh || wh != wh), "bf fma %d: %g %g want %g %g", i, bf[i * 4], bf[i * 4 + 1], wl, wh);
	}
	printf("PASS\n");
}
