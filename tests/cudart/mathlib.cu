/*
 * mathlib.cu -- the CUDA math library in device code: single-precision
 * sinf, cosf, tanf, expf, exp2f, logf, log2f, powf, sqrtf, rsqrtf, erff,
 * lgammaf, atan2f, cbrtf, fmaf, fminf/fmaxf, floorf/ceilf/roundf/truncf,
 * the fast intrinsics __sinf, __expf, __fdividef, __logf, double-precision
 * sin, cos, exp, log, sqrt, rsqrt, pow, fma, and float <-> int rounding
 * conversions.  Library functions are compared with the host's libm within a
 * few ulps (CUDA's documented error bounds); exact operations (fma, sqrt,
 * conversions, min/max, rounding) must match exactly; the fast intrinsics
 * within their documented absolute error.
 */
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "check.h"

enum { NF = 32, ND = 10 };

__global__ void mathk(const float *x, const double *xd, float *of, double *od, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float v = x[i], a = fabsf(v) + 0.01f;
	float *o = of + (size_t)i * NF;
	o[0] = sinf(v);
	o[1] = cosf(v);
	o[2] = tanf(v * 0.3f);
	o[3] = expf(v * 0.5f);
	o[4] = exp2f(v);
	o[5] = logf(a);
	o[6] = log2f(a);
	o[7] = powf(a, 1.7f);
	o[8] = sqrtf(a);
	o[9] = rsqrtf(a);
	o[10] = erff(v * 0.4f);
	o[11] = lgammaf(a);
	o[12] = atan2f(v, 1.5f);
	o[13] = cbrtf(v);
	o[14] = fmaf(v, 1.1f, -0.3f);
	o[15] = fminf(v, 0.5f);
	o[16] = fmaxf(v, -0.5f);
	o[17] = floorf(v);
	o[18] = ceilf(v);
	o[19] = roundf(v);
	o[20] = truncf(v);
	o[21] = __sinf(v);
	o[22] = __expf(v * 0.25f);
	o[23] = __fdividef(v, 3.0f);
	o[24] = __logf(a);
	o[25] = (float)__float2int_rn(v * 3.3f);
	o[26] = (float)__float2int_rd(v * 3.3f);
	o[27] = (float)__float2uint_ru(a * 3.3f);
	o[28] = __int2float_rn(i * 1234567);
	o[29] = tanhf(v * 0.5f);
	o[30] = asinf(v / 8.0f);
	o[31] = expm1f(v * 0.1f);
	double d = xd[i], ad = fabs(d) + 0.01;
	double *p = od + (size_t)i * ND;
	p[0] = sin(d);
	p[1] = cos(d);
	p[2] = exp(d * 0.5);
	p[3] = log(ad);
	p[4] = sqrt(ad);
	p[5] = rsqrt(ad);
	p[6] = pow(ad, 0.37);
	p[7] = fma(d, 1.0 / 3.0, 0.125);
	p[8] = d / 7.0;
	p[9] = (double)(float)d + (double)(long long)(d * 1e6);
}

static int ulps(float a, float b)
{
	if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
	int32_t ia, ib;
	std::memcpy(&ia, &a, 4);
	std::memcpy(&ib, &b, 4);
	if (ia < 0) ia = INT32_MIN - ia;
	if (ib < 0) ib = INT32_MIN - ib;
	long long dl = (long long)ia - ib;
	return dl < 0 ? (int)-dl : (int)dl;
}

static long long ulpsd(double a, double b)
{
	if (a == b) return 0;
	int64_t ia, ib;
	std::memcpy(&ia, &a, 8);
	std::memcpy(&ib, &b, 8);
	if (ia < 0) ia = INT64_MIN - ia;
	if (ib < 0) ib = INT64_MIN - ib;
	return ia > ib ? ia - ib : ib - ia;
}

int main()
{
	const int n = 256;
	float *hx = new float[n];
	double *hxd = new double[n];
	for (int i = 0; i < n; i++) {
		hx[i] = -6.0f + 12.0f * i / n + 0.0137f * (i % 5);
		hxd[i] = -5.0 + 10.0 * i / n + 1e-3 * (i % 7);
	}
	float *dx, *dof;
	double *dxd, *dod;
	CHECK(cudaMalloc(&dx, n * sizeof(float)));
	CHECK(cudaMalloc(&dxd, n * sizeof(double)));
	CHECK(cudaMalloc(&dof, n * NF * sizeof(float)));
	CHECK(cudaMalloc(&dod, n * ND * sizeof(double)));
	CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dxd, hxd, n * sizeof(double), cudaMemcpyHostToDevice));
	mathk<<<n / 64, 64>>>(dx, dxd, dof, dod, n);
	CHECK(cudaGetLastError());
	float *of = new float[n * NF];
	double *od = new double[n * ND];
	CHECK(cudaMemcpy(of, dof, n * NF * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(od, dod, n * ND * sizeof(double), cudaMemcpyDeviceToHost));
	static const char *fname[NF] = {
		"sinf", "cosf", "tanf", "expf", "exp2f", "logf", "log2f", "powf", "sqrtf",
		"rsqrtf", "erff", "lgammaf", "atan2f", "cbrtf", "fmaf", "fminf", "fmaxf",
		"floorf", "ceilf", "roundf", "truncf", "__sinf", "__expf", "__fdividef",
		"__logf", "float2int_rn", "float2int_rd", "float2uint_ru", "int2float_rn",
		"tanhf", "asinf", "expm1f"};
	// max ulps per function (CUDA Programming Guide, Mathematical Functions)
	static const int tol[NF] = {2, 2, 4, 2, 2, 1, 1, 4, 0, 2, 2, 6, 3, 1, 0, 0, 0,
	                             0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 2, 2, 1};
	int bad = 0;
	for (int i = 0; i < n; i++) {
		float v = hx[i], a = std::fabs(v) + 0.01f;
		double ref[NF] = {
			std::sin((double)v), std::cos((double)v), std::tan((double)(v * 0.3f)),
			std::exp((double)(v * 0.5f)), std::exp2((double)v), std::log((double)a),
			std::log2((double)a), std::pow((double)a, (double)1.7f), std::sqrt(a),
			1.0 / std::sqrt((double)a), std::erf((double)(v * 0.4f)),
			std::lgamma((double)a), std::atan2((double)v, 1.5), std::cbrt((double)v),
			std::fmaf(v, 1.1f, -0.3f), std::fmin(v, 0.5f), std::fmax(v, -0.5f),
			std::floor(v), std::ceil(v), std::round(v), std::trunc(v),
			std::sin((double)v), std::exp((double)(v * 0.25f)), (double)v / 3.0,
			std::log((double)a), (double)(int)std::nearbyint(v * 3.3f),
			std::floor(v * 3.3f), std::ceil(a * 3.3f), (float)(i * 1234567),
			std::tanh((double)(v * 0.5f)), std::asin((double)(v / 8.0f)),
			std::expm1((double)(v * 0.1f))};
		for (int k = 0; k < NF; k++) {
			float got = of[i * NF + k], want = (float)ref[k];
			bool ok = tol[k] >= 0 ? ulps(got, want) <= tol[k]
			                      : std::fabs(got - ref[k]) <= 4e-6 * (1 + std::fabs(ref[k]));
			if (!ok && bad++ < 20)
				std::fprintf(stderr, "%s(x[%d]=%.9g) = %.9g, want %.9g (%d ulps)\n",
				             fname[k], i, v, got, want, ulps(got, want));
		}
		double d = hxd[i], ad = std::fabs(d) + 0.01;
		double refd[ND] = {std::sin(d), std::cos(d), std::exp(d * 0.5), std::log(ad),
		                   std::sqrt(ad), 1.0 / std::sqrt(ad), std::pow(ad, 0.37),
		                   std::fma(d, 1.0 / 3.0, 0.125), d / 7.0,
		                   (double)(float)d + (double)(long long)(d * 1e6)};
		static const int told[ND] = {2, 2, 2, 2, 0, 2, 3, 0, 0, 0};
		static const char *dname[ND] = {"sin", "cos", "exp", "log", "sqrt", "rsqrt",
		                                "pow", "fma", "div", "cvt"};
		for (int k = 0; k < ND; k++) {
			double got = od[i * ND + k];
			if (ulpsd(got, refd[k]) > told[k] && bad++ < 20)
				std::fprintf(stderr, "%s(%.17g) = %.17g, want %.17g\n", dname[k], d,
				             got, refd[k]);
		}
	}
	EXPECT(bad == 0, "%d results out of tolerance", bad);
	std::printf("PASS\n");
	return 0;
}
