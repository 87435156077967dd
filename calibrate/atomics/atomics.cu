/*
 * atomics.cu -- atomicAdd throughput: every thread of the grid adds 1, k
 * times, to one counter of the whole grid (same), to its warp's counter
 * (warp: the 32 lanes of an instruction collide), or to its own (thread:
 * distinct, coalesced addresses); in global memory, and in shared memory
 * (one counter per CTA, or one per thread).  The result is not used: nvcc
 * emits atom.add with a dead destination, which ptxas turns into a
 * reduction (RED), the fire-and-forget form a histogram uses.
 *
 * Thread 0 of each CTA records %globaltimer after a barrier at the start
 * and at the end; the host divides the adds by the time.  The counters are
 * the check: each must hold exactly the adds made to it.
 */
#include "../timers.cuh"

/* mode 0: ctr[0]; 1: ctr[global warp]; 2: ctr[global thread] */
extern "C" __global__ void atom_global(unsigned *ctr, unsigned mode, unsigned k,
                                       unsigned long long *times)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned *c = ctr + (mode == 0 ? 0 : mode == 1 ? tid / 32 : tid);

	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x] = globaltimer();
	for (unsigned i = 0; i < k; i++)
		atomicAdd(c, 1u);
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x + 1] = globaltimer();
}

/* mode 0: one shared counter per CTA; 1: one per thread.  out gets them */
extern "C" __global__ void atom_shared(unsigned *out, unsigned mode, unsigned k,
                                       unsigned long long *times)
{
	__shared__ unsigned sh[1024];
	unsigned *c = &sh[mode == 0 ? 0 : threadIdx.x];

	sh[threadIdx.x] = 0;
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x] = globaltimer();
	for (unsigned i = 0; i < k; i++)
		atomicAdd(c, 1u);
	__syncthreads();
	if (threadIdx.x == 0)
		times[2 * blockIdx.x + 1] = globaltimer();
	out[blockIdx.x * blockDim.x + threadIdx.x] = sh[threadIdx.x];
}
