/*
 * intrinsics.cu -- integer intrinsics and atomics in device code.
 * Intrinsics: __popc, __popcll, __clz, __clzll, __ffs, __ffsll, __brev,
 * __brevll, __byte_perm, __funnelshift_l/_r/_lc, __mulhi, __umulhi,
 * __mul64hi, __umul64hi, __sad, __usad, __hadd, __rhadd, __mul24,
 * __vadd4, __vsub4, __vabsdiffu4, __vmaxu2, __vcmpgtu4, __dp4a, each
 * checked against a plain C++ model of its documented meaning.  Atomics:
 * atomicAdd on int, unsigned, unsigned long long, float and double;
 * atomicSub, atomicMax/Min on int, unsigned and 64-bit, atomicExch on int
 * and float, atomicInc/atomicDec with wrap, atomicAnd/Or/Xor, and
 * atomicCAS on 32 and 64 bits (a CAS loop building a 64-bit maximum), all
 * from many threads of several blocks onto few addresses.
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "check.h"

enum { NI = 30 };

__global__ void intr(const uint32_t *a, const uint64_t *b, uint32_t *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	uint32_t x = a[i], y = a[(i * 7 + 3) % n];
	uint64_t X = b[i], Y = b[(i * 5 + 1) % n];
	uint32_t *r = o + (size_t)i * NI;
	r[0] = __popc(x);
	r[1] = __popcll(X);
	r[2] = __clz(x);
	r[3] = __clzll(X >> (i % 64));
	r[4] = __ffs(x & 0xfffff000u);
	r[5] = __ffsll(X << (i % 64));
	r[6] = __brev(x);
	r[7] = (uint32_t)(__brevll(X) >> 7);
	r[8] = __byte_perm(x, y, 0x7531 + (i % 9));
	r[9] = __funnelshift_l(x, y, i);
	r[10] = __funnelshift_r(x, y, i);
	r[11] = __funnelshift_lc(x, y, i);
	r[12] = (uint32_t)__mulhi((int)x, (int)y);
	r[13] = __umulhi(x, y);
	r[14] = (uint32_t)(__mul64hi((long long)X, (long long)Y) >> 13);
	r[15] = (uint32_t)__umul64hi(X, Y);
	r[16] = __sad((int)x, (int)y, 17u);
	r[17] = __usad(x, y, 5u);
	r[18] = (uint32_t)__hadd((int)x, (int)y);
	r[19] = (uint32_t)__rhadd((int)x, (int)y);
	r[20] = (uint32_t)__mul24((int)x, (int)y);
	r[21] = __vadd4(x, y);
	r[22] = __vsub4(x, y);
	r[23] = __vabsdiffu4(x, y);
	r[24] = __vmaxu2(x, y);
	r[25] = __vcmpgtu4(x, y);
	r[26] = (uint32_t)__dp4a((int)x, (int)y, i);
	r[27] = __umulhi(x, 0xffffffffu) + __popc(~x);
	r[28] = (uint32_t)__clz(0) + __ffs(0) + (uint32_t)__clzll(0ull);
	r[29] = (uint32_t)__funnelshift_rc(x, y, 40);
}

struct Acc {
	int iadd;
	unsigned uadd;
	unsigned long long ulladd;
	float fadd;
	double dadd;
	int isub;
	int imax, imin;
	unsigned umax, umin;
	unsigned long long ullmax, ullmin;
	long long llmax;
	int exch;
	float fexch;
	unsigned inc, dec;
	unsigned band, bor, bxor;
	unsigned long long casmax;
	unsigned cascount;
};

__device__ void cas_max64(unsigned long long *p, unsigned long long v)
{
	unsigned long long old = *p, seen;
	while (old < v && (seen = atomicCAS(p, old, v)) != old) old = seen;
}

__global__ void atom(Acc *acc, int *hist, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int v = (i * 37) % 101 - 50;
	atomicAdd(&acc->iadd, v);
	atomicAdd(&acc->uadd, (unsigned)i * 3u);
	atomicAdd(&acc->ulladd, (unsigned long long)i << 33);
	atomicAdd(&acc->fadd, 0.5f * (i % 8));
	atomicAdd(&acc->dadd, 0.25 * i);
	atomicSub(&acc->isub, i);
	atomicMax(&acc->imax, v);
	atomicMin(&acc->imin, v);
	atomicMax(&acc->umax, (unsigned)(i * 2654435761u));
	atomicMin(&acc->umin, (unsigned)(i * 2654435761u) | 1u);
	atomicMax(&acc->ullmax, (unsigned long long)i * 0x9E3779B97F4A7C15ull);
	atomicMin(&acc->ullmin, ((unsigned long long)i * 0x9E3779B97F4A7C15ull) | 1ull);
	atomicMax(&acc->llmax, (long long)v * (1ll << 40));
	atomicExch(&acc->exch, 7);
	atomicExch(&acc->fexch, 2.5f);
	atomicInc(&acc->inc, 16u);
	atomicDec(&acc->dec, 20u);
	atomicAnd(&acc->band, ~(1u << (i % 32)) | (i >= 32 ? 1u : 0u));
	atomicOr(&acc->bor, 1u << (i % 29));
	atomicXor(&acc->bxor, (unsigned)i * 0x01010101u);
	cas_max64(&acc->casmax, (unsigned long long)((i * 7919) % 1000) << 32 | (unsigned)i);
	unsigned old = atomicCAS(&acc->cascount, 0u, (unsigned)i + 1);
	if (old == 0) atomicAdd(&acc->uadd, 0u);
	atomicAdd(&hist[(i * i) % 16], 1);
	int prev = atomicExch(&hist[16 + i % 4], i);
	(void)prev;
}

static uint32_t rbits(uint32_t x)
{
	uint32_t r = 0;
	for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k);
	return r;
}
static int clz32(uint32_t x) { int n = 0; while (n < 32 && !(x & (1u << (31 - n)))) n++; return n; }
static int clz64(uint64_t x) { int n = 0; while (n < 64 && !(x & (1ull << (63 - n)))) n++; return n; }
static int ffs32(uint32_t x) { for (int k = 0; k < 32; k++) if (x >> k & 1) return k + 1; return 0; }
static int ffs64(uint64_t x) { for (int k = 0; k < 64; k++) if (x >> k & 1) return k + 1; return 0; }
static int pop64(uint64_t x) { int n = 0; for (; x; x &= x - 1) n++; return n; }

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
	uint64_t v = (uint64_t)y << 32 | x;
	uint32_t r = 0;
	for (int k = 0; k < 4; k++) r |= (uint32_t)(v >> (8 * ((s >> (4 * k)) & 7)) & 0xff) << (8 * k);
	return r;
}

static uint64_t umulhi64(uint64_t a, uint64_t b) { return (uint64_t)((unsigned __int128)a * b >> 64); }
static int64_t mulhi64(int64_t a, int64_t b) { return (int64_t)((__int128)a * b >> 64); }

static uint32_t lanes(uint32_t x, uint32_t y, int bits, int op)
{
	uint32_t r = 0, m = (1u << bits) - 1;
	for (int k = 0; k < 32; k += bits) {
		uint32_t a = x >> k & m, b = y >> k & m, v = 0;
		switch (op) {
		case 0: v = a + b; break;
		case 1: v = a - b; break;
		case 2: v = a > b ? a - b : b - a; break;
		case 3: v = a > b ? a : b; break;
		case 4: v = a > b ? m : 0; break;
		}
		r |= (v & m) << k;
	}
	return r;
}

static void ref_intr(uint32_t x, uint32_t y, uint64_t X, uint64_t Y, int i, uint32_t *r)
{
	r[0] = pop64(x);
	r[1] = pop64(X);
	r[2] = clz32(x);
	r[3] = clz64(X >> (i % 64));
	r[4] = ffs32(x & 0xfffff000u);
	r[5] = ffs64(X << (i % 64));
	r[6] = rbits(x);
	r[7] = (uint32_t)(((uint64_t)rbits((uint32_t)X) << 32 | rbits((uint32_t)(X >> 32))) >> 7);
	r[8] = byte_perm(x, y, 0x7531 + (i % 9));
	uint64_t xy = (uint64_t)y << 32 | x;
	r[9] = (uint32_t)(xy << (i & 31) >> 32);
	r[10] = (uint32_t)(xy >> (i & 31));
	int c = i < 32 ? i : 32;
	r[11] = c == 32 ? x : (uint32_t)(xy << c >> 32);
	r[12] = (uint32_t)((int64_t)(int32_t)x * (int32_t)y >> 32);
	r[13] = (uint32_t)((uint64_t)x * y >> 32);
	r[14] = (uint32_t)((uint64_t)mulhi64((int64_t)X, (int64_t)Y) >> 13);
	r[15] = (uint32_t)umulhi64(X, Y);
	r[16] = (uint32_t)((int32_t)x > (int32_t)y ? (int64_t)(int32_t)x - (int32_t)y
	                                            : (int64_t)(int32_t)y - (int32_t)x) + 17u;
	r[17] = (x > y ? x - y : y - x) + 5u;
	r[18] = (uint32_t)(int32_t)(((int64_t)(int32_t)x + (int32_t)y) >> 1);
	r[19] = (uint32_t)(int32_t)(((int64_t)(int32_t)x + (int32_t)y + 1) >> 1);
	int32_t x24 = (int32_t)(x << 8) >> 8, y24 = (int32_t)(y << 8) >> 8;
	r[20] = (uint32_t)((int64_t)x24 * y24);
	r[21] = lanes(x, y, 8, 0);
	r[22] = lanes(x, y, 8, 1);
	r[23] = lanes(x, y, 8, 2);
	r[24] = lanes(x, y, 16, 3);
	r[25] = lanes(x, y, 8, 4);
	int dp = i;
	for (int k = 0; k < 4; k++) dp += (int8_t)(x >> 8 * k) * (int8_t)(y >> 8 * k);
	r[26] = (uint32_t)dp;
	r[27] = (uint32_t)((uint64_t)x * 0xffffffffu >> 32) + pop64(~x);
	r[28] = 32 + 0 + 64;
	r[29] = (uint32_t)(xy >> 32);
}

int main()
{
	const int n = 320;
	uint32_t *ha = new uint32_t[n];
	uint64_t *hb = new uint64_t[n];
	uint64_t s = 0x243F6A8885A308D3ull;
	for (int i = 0; i < n; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		ha[i] = (uint32_t)(s >> 29);
		hb[i] = s ^ (s << 13) ^ ((uint64_t)i << 50);
		if (i % 17 == 0) ha[i] = 1u << (i % 32);
		if (i % 23 == 0) hb[i] = 0;
	}
	uint32_t *da, *dout;
	uint64_t *db;
	CHECK(cudaMalloc(&da, n * 4));
	CHECK(cudaMalloc(&db, n * 8));
	CHECK(cudaMalloc(&dout, n * NI * 4));
	CHECK(cudaMemcpy(da, ha, n * 4, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, hb, n * 8, cudaMemcpyHostToDevice));
	intr<<<n / 64, 64>>>(da, db, dout, n);
	CHECK(cudaGetLastError());
	uint32_t *out = new uint32_t[n * NI];
	CHECK(cudaMemcpy(out, dout, n * NI * 4, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < n; i++) {
		uint32_t want[NI];
		ref_intr(ha[i], ha[(i * 7 + 3) % n], hb[i], hb[(i * 5 + 1) % n], i, want);
		for (int k = 0; k < NI; k++)
			if (out[i * NI + k] != want[k] && bad++ < 20)
				std::fprintf(stderr, "intrinsic %d, i=%d: got %#x, want %#x\n", k, i,
				             out[i * NI + k], want[k]);
	}
	EXPECT(bad == 0, "%d intrinsic results differ", bad);

	Acc init;
	std::memset(&init, 0, sizeof init);
	init.imax = INT32_MIN, init.imin = INT32_MAX, init.umin = ~0u, init.ullmin = ~0ull;
	init.llmax = INT64_MIN, init.dec = 3, init.band = ~0u;
	Acc *dacc;
	int *dhist;
	CHECK(cudaMalloc(&dacc, sizeof(Acc)));
	CHECK(cudaMalloc(&dhist, 20 * sizeof(int)));
	CHECK(cudaMemcpy(dacc, &init, sizeof init, cudaMemcpyHostToDevice));
	CHECK(cudaMemset(dhist, 0, 20 * sizeof(int)));
	atom<<<(n + 95) / 96, 96>>>(dacc, dhist, n);
	CHECK(cudaGetLastError());
	Acc g;
	int hist[20];
	CHECK(cudaMemcpy(&g, dacc, sizeof g, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
	Acc w = init;
	int wh[16] = {0};
	for (int i = 0; i < n; i++) {
		int v = (i * 37) % 101 - 50;
		w.iadd += v;
		w.uadd += (unsigned)i * 3u;
		w.ulladd += (unsigned long long)i << 33;
		w.fadd += 0.5f * (i % 8);
		w.dadd += 0.25 * i;
		w.isub -= i;
		w.imax = v > w.imax ? v : w.imax;
		w.imin = v < w.imin ? v : w.imin;
		unsigned h = (unsigned)(i * 2654435761u);
		w.umax = h > w.umax ? h : w.umax;
		w.umin = (h | 1u) < w.umin ? (h | 1u) : w.umin;
		unsigned long long H = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
		w.ullmax = H > w.ullmax ? H : w.ullmax;
		w.ullmin = (H | 1) < w.ullmin ? (H | 1) : w.ullmin;
		long long L = (long long)v * (1ll << 40);
		w.llmax = L > w.llmax ? L : w.llmax;
		w.inc = w.inc >= 16u ? 0 : w.inc + 1;
		w.dec = (w.dec == 0 || w.dec > 20u) ? 20u : w.dec - 1;
		w.band &= ~(1u << (i % 32)) | (i >= 32 ? 1u : 0u);
		w.bor |= 1u << (i % 29);
		w.bxor ^= (unsigned)i * 0x01010101u;
		unsigned long long cm = (unsigned long long)((i * 7919) % 1000) << 32 | (unsigned)i;
		w.casmax = cm > w.casmax ? cm : w.casmax;
		wh[(i * i) % 16]++;
	}
	EXPECT(g.iadd == w.iadd && g.uadd == w.uadd && g.ulladd == w.ulladd, "int adds %d %u %llu",
	       g.iadd, g.uadd, g.ulladd);
	EXPECT(g.fadd == w.fadd && g.dadd == w.dadd, "float adds %g %g, want %g %g", g.fadd,
	       g.dadd, w.fadd, w.dadd);
	EXPECT(g.isub == w.isub, "atomicSub %d, want %d", g.isub, w.isub);
	EXPECT(g.imax == w.imax && g.imin == w.imin, "int max/min %d %d", g.imax, g.imin);
	EXPECT(g.umax == w.umax && g.umin == w.umin, "unsigned max/min %u %u", g.umax, g.umin);
	EXPECT(g.ullmax == w.ullmax && g.ullmin == w.ullmin && g.llmax == w.llmax,
	       "64-bit max/min %llx %llx %llx", g.ullmax, g.ullmin, (unsigned long long)g.llmax);
	EXPECT(g.exch == 7 && g.fexch == 2.5f, "exch %d %g", g.exch, g.fexch);
	EXPECT(g.inc == w.inc && g.dec == w.dec, "inc/dec %u %u, want %u %u", g.inc, g.dec,
	       w.inc, w.dec);
	EXPECT(g.band == w.band && g.bor == w.bor && g.bxor == w.bxor, "and/or/xor %x %x %x",
	       g.band, g.bor, g.bxor);
	EXPECT(g.casmax == w.casmax, "CAS max %llx, want %llx", g.casmax, w.casmax);
	EXPECT(g.cascount >= 1 && g.cascount <= (unsigned)n, "CAS winner %u", g.cascount);
	for (int k = 0; k < 16; k++) EXPECT(hist[k] == wh[k], "hist[%d] = %d, want %d", k, hist[k], wh[k]);
	for (int k = 0; k < 4; k++)
		EXPECT(hist[16 + k] % 4 == k && hist[16 + k] < n, "exch slot %d = %d", k, hist[16 + k]);
	std::printf("PASS\n");
	return 0;
}
