/*
 * curandmc.cu -- cuRAND's device API as Monte Carlo codes use it:
 * curand_init (XORWOW, a subsequence per thread: skipahead through the
 * precalculated matrices nvcc places in device globals), curand_uniform,
 * curand_normal2, and a Philox4_32_10 generator (curand_init with a
 * subsequence and an offset, curand_uniform4) pricing a European call.
 * The CPU reference replicates XORWOW's first draws of subsequence 0 and
 * Philox bit for bit; pi and the option price are checked against the
 * CPU's own Monte Carlo sums over the same draws.
 */
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "check.h"

enum { THREADS = 64, BLOCKS = 4, N = THREADS * BLOCKS, DRAWS = 64 };

__global__ void pi_xorwow(unsigned long long seed, unsigned *hits, unsigned *first)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;
	curandState s;
	curand_init(seed, id, 0, &s);
	first[id] = curand(&s);
	unsigned in = 0;
	for (int i = 0; i < DRAWS; i++) {
		float x = curand_uniform(&s), y = curand_uniform(&s);
		in += x * x + y * y <= 1.0f;
	}
	hits[id] = in;
}

__global__ void normals(unsigned long long seed, float *out)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;
	curandState s;
	curand_init(seed, id, 0, &s);
	float2 z = curand_normal2(&s);
	out[2 * id] = z.x;
	out[2 * id + 1] = z.y;
}

__global__ void option_philox(unsigned long long seed, float S, float K, float r, float v,
                              float T, float *payoff, uint4 *raw)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;
	curandStatePhilox4_32_10_t s;
	curand_init(seed, id, 4, &s);          /* subsequence id, skipping 4 draws */
	raw[id] = curand4(&s);
	float sum = 0;
	for (int i = 0; i < DRAWS / 4; i++) {
		float4 u = curand_uniform4(&s);
		float us[4] = {u.x, u.y, u.z, u.w};
		for (int k = 0; k < 4; k++) {
			float z = normcdfinvf(us[k]);
			float ST = S * expf((r - 0.5f * v * v) * T + v * sqrtf(T) * z);
			sum += fmaxf(ST - K, 0.0f);
		}
	}
	payoff[id] = sum;
}

/* ---- CPU references ---------------------------------------------------------- */

/* XORWOW of subsequence 0: curand_init's seeding (curand_kernel.h) */
static uint32_t xorwow_first(unsigned long long seed)
{
	uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u, s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
	uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
	uint32_t d = 6615241u + t1 + t0;
	uint32_t v[5] = {123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1,
	                 5783321u + t0};
	uint32_t t = v[0] ^ (v[0] >> 2);
	t = t ^ (t << 1) ^ v[4] ^ (v[4] << 4);
	d += 362437u;
	return t + d;
}

static void philox_round(uint32_t k[2], uint32_t c[4])
{
	uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
	uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k[0], (uint32_t)p1,
	                 (uint32_t)(p0 >> 32) ^ c[3] ^ k[1], (uint32_t)p0};
	for (int i = 0; i < 4; i++) c[i] = n[i];
}

/* Philox4x32-10 block `ctr` (128-bit counter: low 64 bits the offset block, high 64 the
 * subsequence) under key `seed` */
static void philox(unsigned long long seed, uint64_t blk, uint64_t subseq, uint32_t out[4])
{
	uint32_t k[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
	uint32_t c[4] = {(uint32_t)blk, (uint32_t)(blk >> 32), (uint32_t)subseq,
	                 (uint32_t)(subseq >> 32)};
	for (int i = 0; i < 10; i++) {
		philox_round(k, c);
		if (i < 9) k[0] += 0x9E3779B9u, k[1] += 0xBB67AE85u;
	}
	for (int i = 0; i < 4; i++) out[i] = c[i];
}

static float u01(uint32_t x)  /* _curand_uniform */
{
	return x * 2.3283064e-10f + 2.3283064e-10f / 2.0f;
}

int main()
{
	const unsigned long long seed = 1234ull;
	unsigned *dh, *df;
	float *dn, *dp;
	uint4 *draw;
	CHECK(cudaMalloc(&dh, N * sizeof(unsigned)));
	CHECK(cudaMalloc(&df, N * sizeof(unsigned)));
	CHECK(cudaMalloc(&dn, 2 * N * sizeof(float)));
	CHECK(cudaMalloc(&dp, N * sizeof(float)));
	CHECK(cudaMalloc(&draw, N * sizeof(uint4)));
	pi_xorwow<<<BLOCKS, THREADS>>>(seed, dh, df);
	CHECK(cudaGetLastError());
	normals<<<BLOCKS, THREADS>>>(seed + 1, dn);
	CHECK(cudaGetLastError());
	const float S = 100, K = 105, r = 0.05f, v = 0.2f, T = 1;
	option_philox<<<BLOCKS, THREADS>>>(seed, S, K, r, v, T, dp, draw);
	CHECK(cudaGetLastError());
	std::vector<unsigned> hits(N), first(N);
	std::vector<float> nrm(2 * N), pay(N);
	std::vector<uint4> raw(N);
	CHECK(cudaMemcpy(hits.data(), dh, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(first.data(), df, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(nrm.data(), dn, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(pay.data(), dp, N * sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(raw.data(), draw, N * sizeof(uint4), cudaMemcpyDeviceToHost));

	/* XORWOW: thread 0 is subsequence 0, bit for bit; the others differ from it */
	EXPECT(first[0] == xorwow_first(seed), "xorwow first draw %u, want %u", first[0],
	       xorwow_first(seed));
	for (int i = 1; i < N; i++)
		EXPECT(first[i] != first[0] && first[i] != first[i - 1],
		       "subsequences %d and %d start alike (skipahead)", i - 1, i);
	/* pi: N * DRAWS points, p = pi/4, sd of the hit count = sqrt(n p (1-p)); 5 sd */
	double n = (double)N * DRAWS, in = 0;
	for (unsigned h : hits) in += h;
	double p = M_PI / 4, sd = std::sqrt(n * p * (1 - p));
	EXPECT(std::fabs(in - n * p) < 5 * sd, "pi estimate %.5f (hits %.0f of %.0f)",
	       4 * in / n, in, n);
	/* normals: mean 0, variance 1 within 5 sd of their estimators over 2N draws */
	double m = 0, m2 = 0;
	for (float z : nrm) m += z, m2 += (double)z * z;
	m /= 2 * N, m2 /= 2 * N;
	EXPECT(std::fabs(m) < 5 / std::sqrt(2.0 * N) && std::fabs(m2 - 1) < 5 * std::sqrt(2.0 / (2 * N)),
	       "normal draws: mean %g, second moment %g", m, m2);
	/* Philox: subsequence id, offset 4 (one block of 4) -> first curand4 is block 1 */
	double ref_sum = 0, got_sum = 0;
	for (int id = 0; id < N; id++) {
		uint32_t o[4];
		philox(seed, 1, (uint64_t)id, o);
		uint4 g = raw[id];
		EXPECT(g.x == o[0] && g.y == o[1] && g.z == o[2] && g.w == o[3],
		       "philox thread %d: %08x %08x %08x %08x, want %08x %08x %08x %08x", id,
		       g.x, g.y, g.z, g.w, o[0], o[1], o[2], o[3]);
		got_sum += pay[id];
	}
	/* price: the CPU's own normal inverse on the same uniforms */
	for (int id = 0; id < N; id++)
		for (int b = 0; b < DRAWS / 4; b++) {
			uint32_t o[4];
			philox(seed, 2 + (uint64_t)b, (uint64_t)id, o);
			for (int k = 0; k < 4; k++) {
				double u = u01(o[k]);
				/* inverse normal CDF by bisection on erfc */
				double lo = -9, hi = 9;
				for (int it = 0; it < 80; it++) {
					double mid = (lo + hi) / 2;
					if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < u) lo = mid; else hi = mid;
				}
				double z = (lo + hi) / 2;
				double ST = S * std::exp((r - 0.5 * v * v) * T + v * std::sqrt(T) * z);
				ref_sum += std::fmax(ST - K, 0.0);
			}
		}
	EXPECT(std::fabs(got_sum - ref_sum) < 1e-4 * ref_sum, "payoff sum %.6f, CPU %.6f",
	       got_sum, ref_sum);
	double price = std::exp(-r * T) * got_sum / (N * DRAWS);
	/* Black-Scholes: 8.0214; the sampling sd of the mean payoff (~14.7 / sqrt(n)) */
	EXPECT(std::fabs(price - 8.0214) < 5 * 14.7 / std::sqrt((double)N * DRAWS),
	       "call price %.4f, Black-Scholes 8.0214", price);
	std::printf("pi ~ %.4f, call ~ %.4f\nPASS\n", 4 * in / n, price);
	return 0;
}
