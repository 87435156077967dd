/*
 * banks.cu -- shared-memory bank conflicts: one warp, each lane following
 * its own chain of shared-memory loads (each word holds its own address),
 * lane l at word l * stride.  With 32 banks of 4-byte words, a stride of
 * 2^k words puts min(2^k, 32) lanes on each bank used: a 1- to 32-way
 * conflict that the hardware serves in that many passes, so the cycles per
 * dependent load grow with the ways (Mei & Chu, TPDS 2017, Section 5).
 */
#include "../timers.cuh"

#define REP4(x) x x x x
#define REP16(x) REP4(x) REP4(x) REP4(x) REP4(x)

/* stride in words, 1..32; the kernel uses 32 x 32 words (4 KB) */
extern "C" __global__ void banks(unsigned n, unsigned stride, unsigned *out, long long *cyc)
{
	__shared__ unsigned sh[32 * 32];
	unsigned w = (threadIdx.x * stride) & (32 * 32 - 1);
	unsigned p = (unsigned)__cvta_generic_to_shared(&sh[w]);

	sh[w] = p;
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
