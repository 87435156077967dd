/*
 * libcupp.cu -- libcu++ (CUDA's C++ standard library) in device code:
 * cuda::atomic_ref on global and shared words (fetch_add, fetch_min/max,
 * compare_exchange_strong in a loop, exchange, memory orders), a
 * cuda::std::atomic<int> counter in device memory with thread_scope_device,
 * cuda::atomic<unsigned long long, thread_scope_block> in shared memory,
 * cuda::std::array in registers and as a kernel argument,
 * cuda::std::complex<float>/<double> arithmetic (multiply, divide, abs, exp,
 * polar), cuda::std::numeric_limits, cuda::std::optional and
 * cuda::std::tuple, cuda::std::span over dynamic shared memory.
 */
#include <cuda_runtime.h>
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>

#include <cmath>
#include <complex>
#include <vector>

#include "check.h"

struct Stats {
	int sum, mn, mx, casmax, exch_seen;
	unsigned long long blocksum;
};

__device__ cuda::std::atomic<int> ticket(0);

__global__ void atomics(const int *v, int n, Stats *st, int *order)
{
	__shared__ int smax;
	__shared__ cuda::atomic<unsigned long long, cuda::thread_scope_block> bsum;
	if (threadIdx.x == 0) {
		smax = cuda::std::numeric_limits<int>::min();
		new (&bsum) cuda::atomic<unsigned long long, cuda::thread_scope_block>(0);
	}
	__syncthreads();
	cuda::atomic_ref<int, cuda::thread_scope_device> sum(st->sum), mn(st->mn), mx(st->mx);
	cuda::atomic_ref<int, cuda::thread_scope_device> casmax(st->casmax);
	cuda::atomic_ref<int, cuda::thread_scope_block> sm(smax);
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		int x = v[i];
		sum.fetch_add(x, cuda::std::memory_order_relaxed);
		mn.fetch_min(x);
		mx.fetch_max(x, cuda::std::memory_order_acq_rel);
		sm.fetch_max(x);
		bsum.fetch_add((unsigned long long)(x + 1000));
		int cur = casmax.load(cuda::std::memory_order_acquire);
		while (cur < x && !casmax.compare_exchange_strong(cur, x)) {
		}
	}
	/* every thread takes a ticket: the tickets are a permutation of 0..threads-1 */
	int t = ticket.fetch_add(1, cuda::std::memory_order_relaxed);
	order[t] = blockIdx.x * blockDim.x + threadIdx.x;
	__syncthreads();
	if (threadIdx.x == 0) {
		cuda::atomic_ref<int, cuda::thread_scope_device> ex(st->exch_seen);
		int old = ex.exchange(smax);
		(void)old;
		cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> bs(st->blocksum);
		bs.fetch_add(bsum.load());
	}
}

using cfloat = cuda::std::complex<float>;
using cdouble = cuda::std::complex<double>;

__global__ void complexk(const cuda::std::array<float, 4> coef, const float2 *z, float2 *out,
                         double2 *outd, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	cfloat a(z[i].x, z[i].y);
	/* Horner with the array's coefficients */
	cfloat p = coef[3];
	for (int k = 2; k >= 0; k--) p = p * a + coef[k];
	cfloat q = p / (a + cfloat(2.0f, 1.0f));
	out[2 * i] = make_float2(q.real(), q.imag());
	out[2 * i + 1] = make_float2(cuda::std::abs(a), cuda::std::arg(a));
	cdouble d(z[i].x, z[i].y);
	cdouble e = cuda::std::exp(d) * cuda::std::polar(2.0, 0.5) - cuda::std::conj(d);
	outd[i] = make_double2(e.real(), e.imag());
}

__global__ void spans(const int *in, int *out, int n)
{
	extern __shared__ int buf[];
	cuda::std::span<int> s(buf, blockDim.x);
	s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
	__syncthreads();
	cuda::std::array<int, 3> w{};
	for (int k = 0; k < 3; k++)
		w[k] = s[(threadIdx.x + k) % s.size()];
	cuda::std::optional<int> lo = w[0] < -10 ? cuda::std::optional<int>(-10) : cuda::std::nullopt;
	auto t = cuda::std::make_tuple(w[0] < w[1] ? w[0] : w[1], w[1] > w[2] ? w[1] : w[2],
	                               w[0] > 10 ? 10 : lo.value_or(w[0]));
	out[blockIdx.x * blockDim.x + threadIdx.x] =
		cuda::std::get<0>(t) * 10000 + cuda::std::get<1>(t) * 100 + cuda::std::get<2>(t);
}

int main()
{
	const int n = 5000, blocks = 6, threads = 128;
	std::vector<int> v(n);
	for (int i = 0; i < n; i++) v[i] = (int)((i * 7919u) % 20011u) - 10000;
	int *dv, *dorder;
	Stats *dst, hst0 = {0, cuda::std::numeric_limits<int>::max(),
	                    cuda::std::numeric_limits<int>::min(),
	                    cuda::std::numeric_limits<int>::min(), 0, 0};
	CHECK(cudaMalloc(&dv, n * sizeof(int)));
	CHECK(cudaMalloc(&dorder, blocks * threads * sizeof(int)));
	CHECK(cudaMalloc(&dst, sizeof(Stats)));
	CHECK(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dst, &hst0, sizeof hst0, cudaMemcpyHostToDevice));
	atomics<<<blocks, threads>>>(dv, n, dst, dorder);
	CHECK(cudaGetLastError());
	Stats st;
	std::vector<int> order(blocks * threads);
	CHECK(cudaMemcpy(&st, dst, sizeof st, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(order.data(), dorder, order.size() * sizeof(int), cudaMemcpyDeviceToHost));
	long long sum = 0, bsum = 0;
	int mn = v[0], mx = v[0];
	for (int x : v) sum += x, mn = x < mn ? x : mn, mx = x > mx ? x : mx, bsum += x + 1000;
	EXPECT(st.sum == (int)sum && st.mn == mn && st.mx == mx && st.casmax == mx,
	       "sum %d min %d max %d casmax %d, want %lld %d %d", st.sum, st.mn, st.mx,
	       st.casmax, sum, mn, mx);
	EXPECT(st.blocksum == (unsigned long long)bsum, "block sums %llu, want %lld",
	       st.blocksum, bsum);
	/* exch_seen: some block's shared maximum; every block sees all of v's residues */
	std::vector<int> seen(order.size(), 0);
	for (int t : order) {
		EXPECT(t >= 0 && t < (int)order.size() && !seen[t], "ticket order repeats %d", t);
		seen[t] = 1;
	}

	const int m = 256;
	cuda::std::array<float, 4> coef = {1.5f, -2.0f, 0.25f, 1.0f};
	std::vector<float2> z(m);
	for (int i = 0; i < m; i++) z[i] = make_float2(std::cos(i * 0.1f) * (1 + i % 5),
	                                               std::sin(i * 0.37f) * 2);
	float2 *dz, *dout;
	double2 *dd;
	CHECK(cudaMalloc(&dz, m * sizeof(float2)));
	CHECK(cudaMalloc(&dout, 2 * m * sizeof(float2)));
	CHECK(cudaMalloc(&dd, m * sizeof(double2)));
	CHECK(cudaMemcpy(dz, z.data(), m * sizeof(float2), cudaMemcpyHostToDevice));
	complexk<<<(m + 63) / 64, 64>>>(coef, dz, dout, dd, m);
	CHECK(cudaGetLastError());
	std::vector<float2> out(2 * m);
	std::vector<double2> outd(m);
	CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float2), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(outd.data(), dd, m * sizeof(double2), cudaMemcpyDeviceToHost));
	for (int i = 0; i < m; i++) {
		std::complex<double> a(z[i].x, z[i].y), p = coef[3];
		for (int k = 2; k >= 0; k--) p = p * a + (double)coef[k];
		std::complex<double> q = p / (a + std::complex<double>(2, 1));
		double tol = 1e-4 * (1 + std::abs(q));
		EXPECT(std::abs(q - std::complex<double>(out[2 * i].x, out[2 * i].y)) < tol,
		       "complex %d: (%g,%g), want (%g,%g)", i, out[2 * i].x, out[2 * i].y, q.real(),
		       q.imag());
		EXPECT(std::fabs(out[2 * i + 1].x - std::abs(a)) < 1e-5 * (1 + std::abs(a)) &&
		       std::fabs(out[2 * i + 1].y - std::arg(a)) < 1e-5,
		       "abs/arg %d: %g %g, want %g %g", i, out[2 * i + 1].x, out[2 * i + 1].y,
		       std::abs(a), std::arg(a));
		std::complex<double> e = std::exp(a) * std::polar(2.0, 0.5) - std::conj(a);
		EXPECT(std::abs(e - std::complex<double>(outd[i].x, outd[i].y)) < 1e-12 * (1 + std::abs(e)),
		       "complex<double> %d: (%.17g,%.17g), want (%.17g,%.17g)", i, outd[i].x,
		       outd[i].y, e.real(), e.imag());
	}

	int *din, *dsp;
	std::vector<int> in(4 * 96);
	for (int i = 0; i < (int)in.size(); i++) in[i] = (i * 37) % 41 - 20;
	CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
	CHECK(cudaMalloc(&dsp, in.size() * sizeof(int)));
	CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
	spans<<<4, 96, 96 * sizeof(int)>>>(din, dsp, (int)in.size());
	CHECK(cudaGetLastError());
	std::vector<int> sp(in.size());
	CHECK(cudaMemcpy(sp.data(), dsp, sp.size() * sizeof(int), cudaMemcpyDeviceToHost));
	for (int b = 0; b < 4; b++)
		for (int t = 0; t < 96; t++) {
			int w0 = in[b * 96 + t], w1 = in[b * 96 + (t + 1) % 96], w2 = in[b * 96 + (t + 2) % 96];
			int c = w0 < -10 ? -10 : w0 > 10 ? 10 : w0;
			int ref = (w0 < w1 ? w0 : w1) * 10000 + (w1 > w2 ? w1 : w2) * 100 + c;
			EXPECT(sp[b * 96 + t] == ref, "span block %d thread %d: %d, want %d", b, t,
			       sp[b * 96 + t], ref);
		}
	std::printf("PASS\n");
	return 0;
}
