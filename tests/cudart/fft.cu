/*
 * fft.cu -- a radix-2 FFT as research codes hand-write it: one block per
 * row of a 2D signal, the row in dynamic shared memory typed by a template
 * (float2 or double2 through an `extern __shared__` byte array), bit
 * reversal with __brev, log2(n) butterfly stages with twiddles from
 * __sincosf (float) and sincospi (double), then a second pass over the
 * columns through a transposed copy, and the inverse transform back.
 * Checked against a direct O(n^2) DFT in double (float within the error
 * of __sincosf's fast twiddles, 2^-21.41 absolute in [-pi, pi]) and by
 * the round trip.
 */
#include <cuda_runtime.h>

#include <cmath>
#include <complex>
#include <vector>

#include "check.h"

template <class C> struct Ops;
template <> struct Ops<float2> {
	typedef float R;
	__device__ static float2 tw(int k, int n, int sign)
	{
		float s, c;
		__sincosf(sign * 6.283185307f * k / n, &s, &c);
		return make_float2(c, s);
	}
	__device__ static float2 mk(float x, float y) { return make_float2(x, y); }
};
template <> struct Ops<double2> {
	typedef double R;
	__device__ static double2 tw(int k, int n, int sign)
	{
		double s, c;
		sincospi(sign * 2.0 * k / n, &s, &c);
		return make_double2(c, s);
	}
	__device__ static double2 mk(double x, double y) { return make_double2(x, y); }
};

/* one line per block: element i of line b is data[b * lstride + i * estride] */
template <class C>
__global__ void fft_lines(C *data, int n, int logn, int sign, int lstride, int estride)
{
	extern __shared__ unsigned char raw[];
	C *s = reinterpret_cast<C *>(raw);
	C *line = data + (size_t)blockIdx.x * lstride;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		s[__brev(i) >> (32 - logn)] = line[(size_t)i * estride];
	__syncthreads();
	for (int half = 1; half < n; half <<= 1) {
		for (int j = threadIdx.x; j < n / 2; j += blockDim.x) {
			int k = j % half, a = (j / half) * 2 * half + k, b = a + half;
			C w = Ops<C>::tw(k, 2 * half, sign), x = s[a], y = s[b];
			C t = Ops<C>::mk(w.x * y.x - w.y * y.y, w.x * y.y + w.y * y.x);
			s[a] = Ops<C>::mk(x.x + t.x, x.y + t.y);
			s[b] = Ops<C>::mk(x.x - t.x, x.y - t.y);
		}
		__syncthreads();
	}
	for (int i = threadIdx.x; i < n; i += blockDim.x) line[(size_t)i * estride] = s[i];
}

static int log2i(int n)
{
	int l = 0;
	while ((1 << l) < n) l++;
	return l;
}

/* 2D transform of rows x cols (powers of two) in place: every row, then every column */
template <class C> static void fft2d(C *d, int rows, int cols, int sign)
{
	fft_lines<C><<<rows, 64, cols * sizeof(C)>>>(d, cols, log2i(cols), sign, cols, 1);
	CHECK(cudaGetLastError());
	fft_lines<C><<<cols, 32, rows * sizeof(C)>>>(d, rows, log2i(rows), sign, 1, cols);
	CHECK(cudaGetLastError());
}

template <class C, class V>
static void run(const std::vector<std::complex<double>> &x, int rows, int cols, double tol,
                const char *what)
{
	int n = rows * cols;
	std::vector<C> h(n);
	for (int i = 0; i < n; i++) h[i].x = (V)x[i].real(), h[i].y = (V)x[i].imag();
	C *d;
	CHECK(cudaMalloc(&d, n * sizeof(C)));
	CHECK(cudaMemcpy(d, h.data(), n * sizeof(C), cudaMemcpyHostToDevice));
	fft2d(d, rows, cols, -1);
	std::vector<C> f(n);
	CHECK(cudaMemcpy(f.data(), d, n * sizeof(C), cudaMemcpyDeviceToHost));
	/* direct 2D DFT in double */
	double scale = 0;
	for (auto &v : x) scale += std::abs(v);
	for (int u = 0; u < rows; u++)
		for (int v = 0; v < cols; v++) {
			std::complex<double> acc = 0;
			for (int r = 0; r < rows; r++)
				for (int c = 0; c < cols; c++)
					acc += x[r * cols + c] * std::polar(1.0, -2 * M_PI *
					       ((double)u * r / rows + (double)v * c / cols));
			std::complex<double> g(f[u * cols + v].x, f[u * cols + v].y);
			EXPECT(std::abs(g - acc) <= tol * scale, "%s X[%d][%d] = (%g,%g), want (%g,%g)",
			       what, u, v, g.real(), g.imag(), acc.real(), acc.imag());
		}
	fft2d(d, rows, cols, 1);                      /* inverse, unscaled */
	CHECK(cudaMemcpy(f.data(), d, n * sizeof(C), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		std::complex<double> g(f[i].x / n, f[i].y / n);
		EXPECT(std::abs(g - x[i]) <= tol * scale, "%s round trip %d: (%g,%g), want (%g,%g)",
		       what, i, g.real(), g.imag(), x[i].real(), x[i].imag());
	}
	CHECK(cudaFree(d));
}

int main()
{
	const int rows = 16, cols = 64;
	std::vector<std::complex<double>> x(rows * cols);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			x[r * cols + c] = {std::sin(0.3 * r) + std::cos(0.7 * c) + (r * c % 5) * 0.1,
			                   0.05 * ((r + 2 * c) % 7)};
	/* float: fast twiddles (abs error 2^-21.41) and float rounding over log2(n) = 10
	 * stages: relative to sum |x|, 1e-5 is ample; double: sincospi, 1e-12 */
	run<float2, float>(x, rows, cols, 1e-5, "float");
	run<double2, double>(x, rows, cols, 1e-12, "double");
	std::printf("PASS\n");
	return 0;
}
