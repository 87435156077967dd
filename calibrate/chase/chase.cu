/*
 * chase.cu -- one thread follows a chain of indices (j = a[j]), each load
 * waiting for the one before: the latency of whichever level of the
 * memory hierarchy holds the chain.  The host lays the chain out one
 * cache line apart over a footprint and sweeps the footprint, so the
 * latency steps up where the footprint outgrows the L1 and the L2: the
 * p-chase of Saavedra, of Wong et al. (ISPASS'10) and of Mei & Chu (TPDS
 * 2017), in the index form those papers and issue 21's GPGPU-Sim
 * comparison use.  Each step is a load and the address arithmetic in
 * front of it (a widening multiply and an add on the critical path), so
 * it is the load-to-use latency plus two dependent integer operations.
 *
 * The chain starts at a[start]; `warm` steps before the timed ones bring
 * the footprint into the caches.
 * clock64() is the SM's cycle counter (timers.cuh).  out[0] = timed
 * cycles, out[1] = where the chain ended, which the host checks against
 * the chain it built.
 */
#include "../timers.cuh"

extern "C" __global__ void chase(const unsigned *a, unsigned start, unsigned warm,
                                 unsigned steps, unsigned long long *out)
{
	unsigned j = start;

	for (unsigned i = 0; i < warm; i++)
		j = a[j];
	long long t0 = clock64();
	for (unsigned i = 0; i < steps; i++)
		j = a[j];
	long long t1 = clock_after(j);
	out[0] = (unsigned long long)(t1 - t0);
	out[1] = j;
}
