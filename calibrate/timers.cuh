/*
 * timers.cuh -- the clocks the calibration kernels read, included by each
 * NAME.cu (and compiled into its PTX).
 *
 * clock64() is the SM's cycle counter; %globaltimer counts nanoseconds on
 * one clock for the whole GPU (rfsim: cycles / clock_mhz * 1000).  A clock
 * read does not wait for the loads before it, so a timed chain would miss
 * its last link's latency (a quarter of the time over four links):
 * clock_after(v) stores v to shared memory first, which cannot issue
 * before v is there, and reads the clock after the store, both in one asm
 * block so that neither compiler moves them apart.
 */
#ifndef RFSIM_CAL_TIMERS_CUH
#define RFSIM_CAL_TIMERS_CUH

__device__ __forceinline__ unsigned long long globaltimer(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* clock64() once v has arrived (32- and 64-bit values, so that the chain's
 * own registers keep their width) */
__device__ __forceinline__ long long clock_after(unsigned v)
{
	__shared__ unsigned sink32[32];
	unsigned at = (unsigned)__cvta_generic_to_shared(&sink32[threadIdx.x & 31]);
	long long t;
	asm volatile("st.shared.u32 [%1], %2;\n\tmov.u64 %0, %%clock64;"
	             : "=l"(t) : "r"(at), "r"(v) : "memory");
	return t;
}

__device__ __forceinline__ long long clock_after(unsigned long long v)
{
	__shared__ unsigned long long sink64[32];
	unsigned at = (unsigned)__cvta_generic_to_shared(&sink64[threadIdx.x & 31]);
	long long t;
	asm volatile("st.shared.u64 [%1], %2;\n\tmov.u64 %0, %%clock64;"
	             : "=l"(t) : "r"(at), "l"(v) : "memory");
	return t;
}

__device__ __forceinline__ unsigned long long bits(unsigned long long v) { return v; }
__device__ __forceinline__ unsigned bits(unsigned v) { return v; }
__device__ __forceinline__ unsigned bits(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits(double v)
{
	return (unsigned long long)__double_as_longlong(v);
}

#endif
