// bulk.cu -- sm_90 bulk copies (cp.async.bulk) and mbarriers of other CTAs,
// in a cluster of two CTAs of one warp each, written with inline PTX so each
// form appears as the ISA spells it (tests/test_semantics.py runs it):
//   1. CTA 0 multicasts in[0..128) to `buf` of both CTAs; each CTA's mbarrier
//      expects the 512 bytes;
//   2. CTA 0 copies its buf[0..64) into CTA 1's `buf2` (shared to shared),
//      completing on CTA 1's mbarrier;
//   3. each CTA copies 256 bytes of its shared memory to out[64 + 64 * rank]
//      (shared to global, a bulk group);
//   4. CTA 1 arrives on CTA 0's mbarrier (a remote arrival), which CTA 0 waits on.
// out[32 * rank + t] = buf[t] + 1000 * rank.
#include <cstdint>

__device__ __forceinline__ unsigned sa(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ unsigned remote(unsigned a, unsigned rank)
{
	unsigned r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
	return r;
}

__device__ __forceinline__ void cluster_sync()
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
	             "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ void wait_parity(unsigned mb, unsigned parity)
{
	asm volatile("{\n\t.reg .pred p;\n"
	             "W:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
	             "@!p bra W;\n\t}" :: "r"(mb), "r"(parity) : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) bulk(const unsigned *in, unsigned *out)
{
	__shared__ alignas(128) unsigned buf[128];
	__shared__ alignas(128) unsigned buf2[64];
	__shared__ alignas(8) unsigned long long mb;
	unsigned t = threadIdx.x, rank;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	unsigned m = sa(&mb);
	if (t == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(m));
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	cluster_sync();
	if (t == 0) {
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 512;" :: "r"(m));
		asm volatile("cp.async.bulk.prefetch.L2.global [%0], 512;" :: "l"(in));
		if (rank == 0) {
			unsigned short mask = 3;
			asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
			             ".multicast::cluster [%0], [%1], 512, [%2], %3;"
			             :: "r"(sa(buf)), "l"(in), "r"(m), "h"(mask) : "memory");
		}
	}
	wait_parity(m, 0);                               // phase 0: the multicast landed
	out[32 * rank + t] = buf[t] + 1000 * rank;
	if (t == 0 && rank == 1)
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" :: "r"(m));
	cluster_sync();
	if (t == 0 && rank == 0)
		asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
		             " [%0], [%1], 256, [%2];"
		             :: "r"(remote(sa(buf2), 1)), "r"(sa(buf)), "r"(remote(m, 1)) : "memory");
	if (rank == 1) wait_parity(m, 1);                // phase 1: buf2 landed
	if (t == 0) {
		const unsigned *src = rank ? buf2 : buf + 64;
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");   // generic writes, then
		asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;\n\t"
		             "cp.async.bulk.commit_group;\n\t"
		             "cp.async.bulk.wait_group.read 0;"
		             :: "l"(out + 64 + 64 * rank), "r"(sa(src)) : "memory");
		if (rank == 1)
			asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];"
			             :: "r"(remote(m, 0)) : "memory");
	}
	if (rank == 0) wait_parity(m, 1);                // phase 1: CTA 1's arrival
	cluster_sync();
}
