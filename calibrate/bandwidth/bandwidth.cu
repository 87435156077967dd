/*
 * bandwidth.cu -- DRAM read bandwidth: every warp of the grid reads whole
 * 128-byte lines (one 4-byte word per lane, coalesced) of a region no
 * kernel has read before, either in order (stream: line t of the region
 * is the t-th access, grid-stride, as a copy or reduction kernel reads) or
 * scattered (kernel `scattered`: line bij(t), a bijection of the region's
 * lines, so every line is read once, in an order with no locality).  The host
 * varies the warps per SM.
 *
 * Each thread sums what it read (the host recomputes the sums); thread 0
 * of each CTA records %globaltimer (nanoseconds, one clock for the GPU)
 * after a barrier at the start and at the end, so bytes / (last end -
 * first start) is the bandwidth the kernel saw.
 */
#include "../timers.cuh"

/* four lines' words p0..p3 summed into s, all four loads issued before the first
 * add (written as one asm block so that the order survives compilation) */
__device__ __forceinline__ void load4(unsigned &s, const unsigned *p0, const unsigned *p1,
                                      const unsigned *p2, const unsigned *p3)
{
	asm volatile("{\n\t.reg .u32 a, b, c, d;\n\t"
	             "ld.global.u32 a, [%1];\n\tld.global.u32 b, [%2];\n\t"
	             "ld.global.u32 c, [%3];\n\tld.global.u32 d, [%4];\n\t"
	             "add.u32 a, a, b;\n\tadd.u32 c, c, d;\n\tadd.u32 a, a, c;\n\t"
	             "add.u32 %0, %0, a;\n\t}"
	             : "+r"(s) : "l"(p0), "l"(p1), "l"(p2), "l"(p3));
}

/* a bijection of [0, n): odd multiplies and xor-shifts within the 2^k >= n
 * values of mask (a bijection of those), repeated until the value falls
 * below n ("cycle walking"); t is the same in every lane of a warp */
__device__ __forceinline__ unsigned scatter(unsigned t, unsigned n, unsigned mask,
                                            unsigned half)
{
	do {
		t = (t * 0x9e3779b1u) & mask;
		t ^= t >> half;
		t = (t * 0x85ebca6bu) & mask;
		t ^= t >> half;
	} while (t >= n);
	return t;
}

extern "C" __global__ void stream(const unsigned *a, unsigned lines, unsigned *sums,
                                  unsigned long long *times)
{
	unsigned lane = threadIdx.x & 31, warps = gridDim.x * (blockDim.x >> 5);
	unsigned gw = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), s = 0;

	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x] = globaltimer();
	unsigned t = gw;
	for (; t + 3 * warps < lines; t += 4 * warps) {
		load4(s, &a[t * 32 + lane], &a[(t + warps) * 32 + lane],
		      &a[(t + 2 * warps) * 32 + lane], &a[(t + 3 * warps) * 32 + lane]);
	}
	for (; t < lines; t += warps)
		s += a[t * 32 + lane];
	sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x + 1] = globaltimer();
}

extern "C" __global__ void scattered(const unsigned *a, unsigned lines, unsigned mask,
                                     unsigned half, unsigned *sums, unsigned long long *times)
{
	unsigned lane = threadIdx.x & 31, warps = gridDim.x * (blockDim.x >> 5);
	unsigned gw = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), s = 0;

	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x] = globaltimer();
	unsigned t = gw, n = lines, m = mask, h = half;
	for (; t + 3 * warps < lines; t += 4 * warps) {
		load4(s, &a[scatter(t, n, m, h) * 32 + lane], &a[scatter(t + warps, n, m, h) * 32 + lane],
		      &a[scatter(t + 2 * warps, n, m, h) * 32 + lane],
		      &a[scatter(t + 3 * warps, n, m, h) * 32 + lane]);
	}
	for (; t < lines; t += warps)
		s += a[scatter(t, n, m, h) * 32 + lane];
	sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x + 1] = globaltimer();
}
