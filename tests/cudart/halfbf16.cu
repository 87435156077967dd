/*
 * halfbf16.cu -- cuda_fp16.h and cuda_bf16.h in device code: conversions
 * from and to float with each rounding mode, half and bfloat16 arithmetic
 * (+ - * /, fma, negation, comparisons, hmax/hmin), half2 and bfloat162
 * vector arithmetic (__hadd2, __hmul2, __hfma2, __h2div), packing and
 * lane swaps (__halves2half2, __low2half, __high2half, __lowhigh2highlow),
 * conversions to and from integers, and hsqrt/hexp/hrcp.  The host computes
 * the same results with the same headers' host implementations.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <cmath>
#include <cstring>

#include "check.h"

enum { NH = 24, NB = 14 };

__global__ void halfk(const float *x, const float *y, float *oh, float *ob, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float fx = x[i], fy = y[i];
	__half a = __float2half(fx), b = __float2half_rz(fy);
	float *o = oh + (size_t)i * NH;
	o[0] = __half2float(a);
	o[1] = __half2float(b);
	o[2] = __half2float(a + b);
	o[3] = __half2float(a - b);
	o[4] = __half2float(a * b);
	o[5] = __half2float(a / b);
	o[6] = __half2float(__hfma(a, b, __float2half(0.75f)));
	o[7] = __half2float(-a);
	o[8] = (a < b) + 2 * (a == b) + 4 * __hgt(a, b) + 8 * __hisnan(a / __float2half(0.0f) * __float2half(0.0f));
	o[9] = __half2float(__hmax(a, b)) + __half2float(__hmin(a, b)) * 3;
	__half2 p = __halves2half2(a, b), q = __floats2half2_rn(fy, 0.5f * fx);
	__half2 s = __hadd2(p, q), m = __hmul2(p, q), f = __hfma2(p, q, s);
	o[10] = __low2float(s);
	o[11] = __high2float(s);
	o[12] = __low2float(m);
	o[13] = __high2float(m);
	o[14] = __low2float(f);
	o[15] = __high2float(f);
	__half2 sw = __lowhigh2highlow(f);
	o[16] = __half2float(__low2half(sw)) - __half2float(__high2half(sw));
	o[17] = (float)__half2int_rz(a * __float2half(10.0f));
	o[18] = __half2float(__int2half_rn(i * 37 - 3000));
	o[19] = __half2float(hsqrt(__habs(a)));
	o[20] = __half2float(__float2half_rd(fx * 1.001f)) + __half2float(__float2half_ru(fx * 1.001f));
	o[21] = __half2float(hexp(a * __float2half(0.25f)));
	o[22] = __half2float(hrcp(b));
	__half2 dv = __h2div(p, q);
	o[23] = __low2float(dv) + __high2float(dv);

	__nv_bfloat16 c = __float2bfloat16(fx), d = __float2bfloat16_rz(fy);
	float *r = ob + (size_t)i * NB;
	r[0] = __bfloat162float(c);
	r[1] = __bfloat162float(d);
	r[2] = __bfloat162float(c + d);
	r[3] = __bfloat162float(c - d);
	r[4] = __bfloat162float(c * d);
	r[5] = __bfloat162float(__hfma(c, d, __float2bfloat16(1.5f)));
	r[6] = __bfloat162float(c / d);
	r[7] = (c < d) + 2 * (c >= d);
	__nv_bfloat162 bp = __halves2bfloat162(c, d), bq = __floats2bfloat162_rn(fy, fx);
	__nv_bfloat162 bs = __hadd2(bp, bq), bm = __hmul2(bp, bq), bf = __hfma2(bp, bq, bs);
	r[8] = __low2float(bs) + 10 * __high2float(bs);
	r[9] = __low2float(bm);
	r[10] = __high2float(bm);
	r[11] = __low2float(bf) - __high2float(bf);
	r[12] = __bfloat162float(__hmax(c, d));
	r[13] = (float)__bfloat162int_rz(c * __float2bfloat16(8.0f));
}

int main()
{
	const int n = 192;
	float hx[n], hy[n];
	for (int i = 0; i < n; i++) {
		hx[i] = -40.0f + 80.0f * i / n + 0.001f * i;
		hy[i] = (i % 2 ? 1 : -1) * (0.03f + 0.37f * (i % 23)) + (i == 7 ? hx[i] : 0);
	}
	hy[5] = hx[5];
	float *dx, *dy, *doh, *dob;
	CHECK(cudaMalloc(&dx, sizeof hx));
	CHECK(cudaMalloc(&dy, sizeof hy));
	CHECK(cudaMalloc(&doh, n * NH * sizeof(float)));
	CHECK(cudaMalloc(&dob, n * NB * sizeof(float)));
	CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
	halfk<<<n / 64, 64>>>(dx, dy, doh, dob, n);
	CHECK(cudaGetLastError());
	float *oh = new float[n * NH], *ob = new float[n * NB];
	CHECK(cudaMemcpy(oh, doh, n * NH * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(ob, dob, n * NB * sizeof(float), cudaMemcpyDeviceToHost));
	int bad = 0;
	// host reference: the headers' host code paths compute the same operations
	for (int i = 0; i < n; i++) {
		float fx = hx[i], fy = hy[i];
		__half a = __float2half(fx), b = __float2half_rz(fy);
		float ra = __half2float(a), rb = __half2float(b);
		auto h = [](float v) { return __half2float(__float2half(v)); };
		float want[NH] = {
			ra, rb, h(ra + rb), h(ra - rb), h(ra * rb), h(ra / rb),
			h(std::fmaf(ra, rb, 0.75f)), -ra,
			(float)((ra < rb) + 2 * (ra == rb) + 4 * (ra > rb) + 8),
			h(std::fmax(ra, rb)) + h(std::fmin(ra, rb)) * 3,
			h(ra + h(fy)), h(rb + h(0.5f * fx)), h(ra * h(fy)), h(rb * h(0.5f * fx)),
			h(std::fmaf(ra, h(fy), h(ra + h(fy)))),
			h(std::fmaf(rb, h(0.5f * fx), h(rb + h(0.5f * fx)))), 0, 0,
			h((float)(i * 37 - 3000)), h(std::sqrt(std::fabs(ra))), 0,
			h(std::exp(h(ra * 0.25f))), h(1.0f / rb),
			h(ra / h(fy)) + h(rb / h(0.5f * fx))};
		want[16] = want[15] - want[14];
		want[17] = (float)(int)h(ra * 10.0f);
		want[20] = __half2float(__float2half_rd(fx * 1.001f)) +
		           __half2float(__float2half_ru(fx * 1.001f));
		static const float tolh[NH] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		                               0, 0, 0, 0, 0, 1e-3f, 1e-3f, 0};
		for (int k = 0; k < NH; k++) {
			float got = oh[i * NH + k];
			if (!(std::fabs(got - want[k]) <= tolh[k] * std::fabs(want[k])) && bad++ < 20)
				std::fprintf(stderr, "half %d, x=%g y=%g: got %.9g, want %.9g\n", k, fx,
				             fy, got, want[k]);
		}
		__nv_bfloat16 c = __float2bfloat16(fx), d = __float2bfloat16_rz(fy);
		float rc = __bfloat162float(c), rd = __bfloat162float(d);
		auto bb = [](float v) { return __bfloat162float(__float2bfloat16(v)); };
		float wantb[NB] = {
			rc, rd, bb(rc + rd), bb(rc - rd), bb(rc * rd), bb(std::fmaf(rc, rd, 1.5f)),
			bb(rc / rd), (float)((rc < rd) + 2 * (rc >= rd)),
			bb(rc + bb(fy)) + 10 * bb(rd + bb(fx)), bb(rc * bb(fy)), bb(rd * bb(fx)),
			bb(std::fmaf(rc, bb(fy), bb(rc + bb(fy)))) -
				bb(std::fmaf(rd, bb(fx), bb(rd + bb(fx)))),
			std::fmax(rc, rd), (float)(int)bb(rc * 8.0f)};
		for (int k = 0; k < NB; k++) {
			float got = ob[i * NB + k];
			float tol = k == 6 ? 1.0f / 128 : 0;   // bf16 division may be approximate
			if (!(std::fabs(got - wantb[k]) <= tol * std::fabs(wantb[k])) && bad++ < 20)
				std::fprintf(stderr, "bf16 %d, x=%g y=%g: got %.9g, want %.9g\n", k, fx,
				             fy, got, wantb[k]);
		}
	}
	EXPECT(bad == 0, "%d results differ", bad);
	std::printf("PASS\n");
	return 0;
}
