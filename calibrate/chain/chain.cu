/*
 * chain.cu -- dependent-issue latency per execution unit: one warp runs a
 * chain of instructions each reading the result of the one before, 16 to
 * a loop iteration, between two clock64() reads; cycles / instructions is
 * the time from an instruction's issue to that of its dependant.
 *
 * Each link is an inline-PTX instruction (asm volatile) so that nvcc can
 * neither fold the chain (x + c + c ... = x + 16c) nor reorder it.  The
 * units: fp32 fma and add, integer add and multiply-add, the SFU's sin,
 * rsqrt and ex2 (approximate), fp64 fma, the tensor core (mma.sync
 * m16n8k16 f16 inputs, f32 accumulators: the chain runs through the
 * accumulators), a shared-memory load whose result is its next address,
 * and a global load that hits the L1 the same way (its line is loaded once
 * before timing).  Every kernel writes each lane's final value, which the
 * host checks, and thread 0 the cycles.
 */
#include "../timers.cuh"

#define REP4(x) x x x x
#define REP16(x) REP4(x) REP4(x) REP4(x) REP4(x)

/* chain_name(n, a, b, out, cyc): x = lane-dependent start, 16n links of op */
#define CHAIN(name, T, C, start, op) \
	extern "C" __global__ void chain_##name(unsigned n, T a, T b, T *out, long long *cyc) \
	{ \
		T x = start; \
		long long t0 = clock64(); \
		for (unsigned i = 0; i < n; i++) { \
			REP16(asm volatile(op : "+" C(x) : C(a), C(b));) \
		} \
		long long t1 = clock_after(bits(x)); \
		out[threadIdx.x] = x; \
		if (threadIdx.x == 0) \
			*cyc = t1 - t0; \
	}

CHAIN(ffma, float, "f", 1.0f + threadIdx.x, "fma.rn.f32 %0, %0, %1, %2;")
CHAIN(fadd, float, "f", 1.0f + threadIdx.x, "add.rn.f32 %0, %0, %1;")
CHAIN(iadd, unsigned, "r", threadIdx.x, "add.u32 %0, %0, %1;")
CHAIN(imad, unsigned, "r", threadIdx.x, "mad.lo.u32 %0, %0, %1, %2;")
CHAIN(sin, float, "f", 1.0f + threadIdx.x / 32.0f, "sin.approx.f32 %0, %0;")
CHAIN(rsqrt, float, "f", 2.0f + threadIdx.x, "rsqrt.approx.f32 %0, %0;")
CHAIN(ex2, float, "f", -1.0f - threadIdx.x, "ex2.approx.f32 %0, %0;")
CHAIN(dfma, double, "d", 1.0 + threadIdx.x, "fma.rn.f64 %0, %0, %1, %2;")

/* mma.sync m16n8k16: A all 1.0, B all 1/16, so each link adds 16 x 1/16 = 1 to
 * every accumulator; after 16n links each holds 16n */
extern "C" __global__ void chain_mma(unsigned n, float *out, long long *cyc)
{
	unsigned a = 0x3c003c00u, b = 0x2c002c00u;   /* f16 pairs: 1.0, 0.0625 */
	float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
	long long t0 = clock64();
	for (unsigned i = 0; i < n; i++) {
		REP16(asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		                   "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
		                   : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
		                   : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));)
	}
	long long t1 = clock_after(bits(d0));
	out[threadIdx.x] = d0 + d1 + d2 + d3;
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}

/* shared-memory load chain: lane l's word holds its own address */
extern "C" __global__ void chain_lds(unsigned n, unsigned *out, long long *cyc)
{
	__shared__ unsigned sh[32];
	unsigned p = (unsigned)__cvta_generic_to_shared(&sh[threadIdx.x]);
	sh[threadIdx.x] = p;
	__syncthreads();
	long long t0 = clock64();
	for (unsigned i = 0; i < n; i++) {
		REP16(asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));)
	}
	long long t1 = clock_after(p);
	out[threadIdx.x] = p;
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}

/* global load chain hitting the L1: g[lane] holds &g[lane] (written by the host) */
extern "C" __global__ void chain_ldg(unsigned n, unsigned long long *g, unsigned long long *out,
                               long long *cyc)
{
	unsigned long long p = (unsigned long long)&g[threadIdx.x];
	REP16(asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));)
	long long t0 = clock64();
	for (unsigned i = 0; i < n; i++) {
		REP16(asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));)
	}
	long long t1 = clock_after(p);
	out[threadIdx.x] = p;
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}
