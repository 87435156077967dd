/*
 * occupancy.cu -- a latency-bound kernel for the occupancy sweep: every
 * warp follows a chain through an 8 MB array of 128-byte lines, all 32
 * lanes loading one word each of the same line (a coalesced line per
 * step), and the line's words hold the index of the next line, a random
 * cyclic permutation of the lines.  Nothing overlaps a warp's loads, so
 * a kernel's speed comes from how many warps wait at once: more CTAs per
 * SM, more loads in flight, until the memory system saturates and each
 * load waits longer (issue 21's occupancy measurement).
 *
 * touch() reads every line once first, so that a GPU whose L2 holds the
 * 8 MB runs every point from the L2 rather than the first from DRAM.
 *
 * Warp w starts at line (w x 2654435761) mod lines (the host repeats the
 * walk to check where it ends).  Lane 0 records the warp's cycles per
 * step (clock64) and its last line; thread 0 of each CTA records
 * %globaltimer after a barrier at the start and at the end.
 */
#include "../timers.cuh"

/* every line once, coalesced; sink keeps the loads */
extern "C" __global__ void touch(const unsigned *a, unsigned lines, unsigned *sink)
{
	unsigned lane = threadIdx.x & 31, warps = gridDim.x * (blockDim.x >> 5);
	unsigned s = 0;

	for (unsigned t = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); t < lines; t += warps)
		s += a[t * 32 + lane];
	sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void cchase(const unsigned *next, unsigned lines, unsigned steps,
                                  unsigned *ends, unsigned long long *cycles,
                                  unsigned long long *times)
{
	unsigned lane = threadIdx.x & 31, gw = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
	unsigned line = (gw * 2654435761u) & (lines - 1);

	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x] = globaltimer();
	long long t0 = clock64();
	for (unsigned s = 0; s < steps; s++)
		line = next[line * 32 + lane];
	long long t1 = clock_after(line);
	if (lane == 0) {
		cycles[gw] = (unsigned long long)(t1 - t0);
		ends[gw] = line;
	}
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x + 1] = globaltimer();
}
