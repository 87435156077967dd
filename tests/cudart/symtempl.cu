/*
 * symtempl.cu -- constant-memory lookup tables and device arrays filled
 * and read back piecewise (cudaMemcpyToSymbol/FromSymbol with offsets,
 * cudaMemcpyToSymbolAsync, cudaGetSymbolAddress/Size), a templated kernel
 * launched with float, double, int and a struct type, and a kernel with many
 * parameters including structs holding arrays and doubles, launched both
 * with <<<>>> and with cudaLaunchKernel; all checked against the CPU.
 */
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "check.h"

__constant__ float c_poly[8];            /* polynomial coefficients */
__constant__ int c_lut[256];             /* a byte -> value table */
__device__ int d_hist[16];
__device__ double d_scale = 0.5;

struct Params {                          /* mixed alignment: arrays and doubles */
	char tag;
	double bias;
	int dims[3];
	float w[5];
	short s;
	double scale;
};

struct Pair {
	int a;
	float b;
};

__host__ __device__ Pair operator+(Pair x, Pair y) { return Pair{x.a + y.a, x.b + y.b}; }
__host__ __device__ Pair twice(Pair p) { return Pair{2 * p.a, 2.0f * p.b}; }
template <typename T> __host__ __device__ T twice(T v) { return v + v; }

template <typename T>
__global__ void axpy(T a, const T *x, T *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = twice(x[i]) + y[i] + a;
}

template <>
__global__ void axpy<Pair>(Pair a, const Pair *x, Pair *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = twice(x[i]) + y[i] + a;
}

__global__ void lookup(const unsigned char *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float x = c_lut[in[i]] * 0.01f, acc = 0.0f;
	for (int k = 7; k >= 0; k--) acc = acc * x + c_poly[k];
	out[i] = acc;
	atomicAdd(&d_hist[in[i] & 15], 1);
}

__global__ void many(int n, Params p, const double *x, double *y, float f1, char c, double d1,
                     unsigned long long u, short sh, Params q, int *flag)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i == 0) *flag = p.tag * 1000 + q.tag + p.dims[0] + p.dims[1] * 10 + p.dims[2] * 100 +
	                    (int)c + (int)(u >> 40) + sh + p.s + q.s;
	if (i >= n) return;
	double w = 0;
	for (int k = 0; k < 5; k++) w += p.w[k] * (k + 1) - q.w[k];
	y[i] = x[i] * p.scale * d_scale + p.bias + w + f1 + d1 + q.bias;
}

static double hpoly[8] = {1, -0.5, 0.25, 0.125, -0.0625, 0.03125, 0, 0.01};

static void test_tables()
{
	int lut[256];
	for (int i = 0; i < 256; i++) lut[i] = (i * 37) % 101;
	/* the table in two halves, the second at an offset */
	CHECK(cudaMemcpyToSymbol(c_lut, lut, 128 * sizeof(int)));
	CHECK(cudaMemcpyToSymbol(c_lut, lut + 128, 128 * sizeof(int), 128 * sizeof(int)));
	float poly[8];
	for (int k = 0; k < 8; k++) poly[k] = (float)hpoly[k];
	CHECK(cudaMemcpyToSymbolAsync(c_poly, poly, sizeof poly, 0, cudaMemcpyHostToDevice, 0));
	int zero[16] = {0};
	CHECK(cudaMemcpyToSymbol(d_hist, zero, sizeof zero));
	size_t size;
	CHECK(cudaGetSymbolSize(&size, c_lut));
	EXPECT(size == sizeof lut, "c_lut size %zu", size);
	const int n = 1000;
	std::vector<unsigned char> in(n);
	for (int i = 0; i < n; i++) in[i] = (unsigned char)(i * 7 + 3);
	unsigned char *din;
	float *dout;
	CHECK(cudaMalloc(&din, n));
	CHECK(cudaMalloc(&dout, n * sizeof(float)));
	CHECK(cudaMemcpy(din, in.data(), n, cudaMemcpyHostToDevice));
	lookup<<<(n + 127) / 128, 128>>>(din, dout, n);
	CHECK(cudaGetLastError());
	std::vector<float> out(n);
	CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
	int hist[16], want_hist[16] = {0};
	/* the histogram's upper half only, through its offset */
	CHECK(cudaMemcpyFromSymbol(hist + 8, d_hist, 8 * sizeof(int), 8 * sizeof(int)));
	int *dh;
	CHECK(cudaGetSymbolAddress((void **)&dh, d_hist));
	CHECK(cudaMemcpy(hist, dh, 8 * sizeof(int), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		float x = lut[in[i]] * 0.01f, acc = 0.0f;
		for (int k = 7; k >= 0; k--) acc = acc * x + poly[k];
		EXPECT(std::fabs(out[i] - acc) <= 1e-5f * std::fabs(acc) + 1e-6f, "lookup[%d] = %g, want %g",
		       i, out[i], acc);
		want_hist[in[i] & 15]++;
	}
	for (int b = 0; b < 16; b++)
		EXPECT(hist[b] == want_hist[b], "hist[%d] = %d, want %d", b, hist[b], want_hist[b]);
	/* past the end of the symbol */
	EXPECT(cudaMemcpyToSymbol(c_poly, poly, sizeof poly, 4) == cudaErrorInvalidValue,
	       "a copy past the symbol's end was accepted");
	EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "not recorded");
	CHECK(cudaFree(din));
	CHECK(cudaFree(dout));
}

template <typename T> static void test_axpy(T a, T (*make)(int), const char *what)
{
	const int n = 300;
	std::vector<T> x(n), y(n), r(n);
	for (int i = 0; i < n; i++) x[i] = make(i), y[i] = make(3 * i + 1);
	T *dx, *dy;
	CHECK(cudaMalloc(&dx, n * sizeof(T)));
	CHECK(cudaMalloc(&dy, n * sizeof(T)));
	CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	axpy<T><<<(n + 63) / 64, 64>>>(a, dx, dy, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(r.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		T w = twice(x[i]);
		w = w + y[i];
		w = w + a;
		EXPECT(std::memcmp(&w, &r[i], sizeof(T)) == 0, "axpy<%s>[%d] differs", what, i);
	}
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
}


static void test_many()
{
	const int n = 100;
	Params p = {}, q = {};
	p.tag = 3, p.bias = 0.125, p.dims[0] = 1, p.dims[1] = 2, p.dims[2] = 3, p.s = 7;
	p.scale = 4.0;
	q.tag = 9, q.bias = -1.5, q.s = -2;
	for (int k = 0; k < 5; k++) p.w[k] = 0.5f * k, q.w[k] = 0.25f;
	std::vector<double> x(n), y(n);
	for (int i = 0; i < n; i++) x[i] = 1.0 / (i + 1);
	double *dx, *dy;
	int *dflag, flag = 0;
	CHECK(cudaMalloc(&dx, n * sizeof(double)));
	CHECK(cudaMalloc(&dy, n * sizeof(double)));
	CHECK(cudaMalloc(&dflag, sizeof(int)));
	CHECK(cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
	float f1 = 2.5f;
	char c = 'A';
	double d1 = 1e-3;
	unsigned long long u = 5ull << 40;
	short sh = -30;
	double w = 0;
	for (int k = 0; k < 5; k++) w += p.w[k] * (k + 1) - q.w[k];
	for (int pass = 0; pass < 2; pass++) {
		CHECK(cudaMemset(dy, 0, n * sizeof(double)));
		CHECK(cudaMemset(dflag, 0, sizeof(int)));
		if (pass == 0) {
			many<<<dim3(2), dim3(64), 0, 0>>>(n, p, dx, dy, f1, c, d1, u, sh, q, dflag);
			CHECK(cudaGetLastError());
		} else {
			int nn = n;
			void *args[] = {&nn, &p, &dx, &dy, &f1, &c, &d1, &u, &sh, &q, &dflag};
			CHECK(cudaLaunchKernel((const void *)many, dim3(2), dim3(64), args, 0, 0));
		}
		CHECK(cudaMemcpy(y.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
		CHECK(cudaMemcpy(&flag, dflag, sizeof flag, cudaMemcpyDeviceToHost));
		int want_flag = 3 * 1000 + 9 + 1 + 20 + 300 + 'A' + 5 - 30 + 7 - 2;
		EXPECT(flag == want_flag, "pass %d: flag %d, want %d", pass, flag, want_flag);
		for (int i = 0; i < n; i++) {
			double want = x[i] * 4.0 * 0.5 + 0.125 + w + f1 + d1 - 1.5;
			EXPECT(std::fabs(y[i] - want) < 1e-12, "pass %d: y[%d] = %.17g, want %.17g", pass,
			       i, y[i], want);
		}
	}
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
	CHECK(cudaFree(dflag));
}

static float mkf(int i) { return 0.5f * i - 3.0f; }
static double mkd(int i) { return 1.0 / (i + 1); }
static int mki(int i) { return i * i - 50; }
static Pair mkp(int i) { return Pair{i, 0.25f * i}; }

int main()
{
	test_tables();
	test_axpy<float>(1.5f, mkf, "float");
	test_axpy<double>(-2.25, mkd, "double");
	test_axpy<int>(7, mki, "int");
	test_axpy<Pair>(Pair{1, 0.5f}, mkp, "Pair");
	test_many();
	std::printf("PASS\n");
	return 0;
}
