/*
 * itscall.cu -- PTX corpus: lanes let go past a spinning lane of their warp
 * (independent thread scheduling) that meet it at a warp-synchronous
 * instruction or a CTA barrier inside a called function, which they reach
 * first: a __noinline__ function here, and in a -G build every __syncwarp,
 * __shfl_sync and cooperative_groups call.  In each kernel lane 0 of warp 0
 * spins until warp 1 has done `spins` steps of work and set a flag; warp 0's
 * other lanes go on and call the function, which must wait for lane 0
 * (callturn: lane 0 of every warp waits for lane 1).
 *   callsync: __syncwarp and a shuffle from lane 0 (the spinning lane)
 *   callbar:  __syncthreads in the function, after which every thread reads
 *             what lane 0 wrote to shared memory
 *   calldiv:  the function diverges first: lanes 0..15 and 16..31 shuffle
 *             apart, and only the low half waits for lane 0
 *   callpart: the caller diverges first: only lanes 0..15 make the call
 *   callturn: lane 0 spins until lane 1 sets a flag, which lane 1 does on
 *             its own branch after lanes 2..31 made the call: lane 0 must
 *             give lane 1 its turn while they wait
 * tests/test_its.py runs them.
 */

/* warp 1's work: a value the test can recompute, after `spins` dependent steps */
__device__ __noinline__ int work(int spins)
{
	unsigned x = 12345;
	for (int i = 0; i < spins; i++) x = x * 1664525u + 1013904223u;
	return (int)(x >> 1);
}

/* lane 0 of warp 0 sets v to warp 1's value, which lane 0 of warp 1 publishes (a macro:
 * -G would make a function a call, and lanes wait for a called function's spinning lanes
 * to return) */
#define WAIT_OR_PUBLISH(flag, data, spins, v) do { \
	int lane_ = threadIdx.x & 31, warp_ = threadIdx.x >> 5; \
	if (lane_ == 0 && warp_ == 0) { \
		while (atomicAdd(&flag[blockIdx.x], 0) == 0) { \
		} \
		v = data[blockIdx.x]; \
	} else if (lane_ == 0 && warp_ == 1) { \
		data[blockIdx.x] = work(spins); \
		__threadfence(); \
		atomicExch(&flag[blockIdx.x], 1); \
	} \
} while (0)

__device__ __noinline__ int bcast0(int v)
{
	__syncwarp();
	return __shfl_sync(0xffffffffu, v, 0);
}

__global__ void callsync(int *flag, int *data, int *out, int spins)
{
	int v = -1;
	WAIT_OR_PUBLISH(flag, data, spins, v);
	out[blockIdx.x * blockDim.x + threadIdx.x] = bcast0(v);
}

__device__ __noinline__ void bsync()
{
	__syncthreads();
}

__global__ void callbar(int *flag, int *data, int *out, int spins)
{
	__shared__ int seen;
	if (threadIdx.x == 32) seen = -1;
	__syncthreads();
	int v = 0;
	WAIT_OR_PUBLISH(flag, data, spins, v);
	if (threadIdx.x == 0) seen = v + 1;
	bsync();
	out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}

__device__ __noinline__ int halves(int v)
{
	int lane = threadIdx.x & 31;
	if (lane < 16)
		v = __shfl_sync(0x0000ffffu, v, 0) * 2;
	else
		v = __shfl_sync(0xffff0000u, v, 16) * 3;
	return v;
}

__global__ void calldiv(int *flag, int *data, int *out, int spins)
{
	int lane = threadIdx.x & 31;
	int v = lane == 16 ? 7 : -1;
	WAIT_OR_PUBLISH(flag, data, spins, v);
	out[blockIdx.x * blockDim.x + threadIdx.x] = halves(v);
}

__device__ __noinline__ int bcast_low(int v)
{
	return __shfl_sync(0x0000ffffu, v, 0) + 1;
}

__global__ void callpart(int *flag, int *data, int *out, int spins)
{
	int v = -1;
	WAIT_OR_PUBLISH(flag, data, spins, v);
	if ((threadIdx.x & 31) < 16) v = bcast_low(v);
	out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__device__ __noinline__ int bcast_not1(int v)
{
	return __shfl_sync(~2u, v, 0) + 1;
}

__global__ void callturn(int *flag, int *data, int *out, int spins)
{
	int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	int v = -1;
	if (lane == 0) {
		while (atomicAdd(&flag[w], 0) == 0) {
		}
		v = data[w];
	}
	if (lane == 1) {
		data[w] = work(spins) + w;
		__threadfence();
		atomicExch(&flag[w], 1);
	} else {
		v = bcast_not1(v);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
