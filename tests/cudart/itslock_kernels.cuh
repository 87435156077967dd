/*
 * itslock_kernels.cuh -- kernels in which lanes of one warp wait in a loop for
 * other lanes of the same warp, which only independent thread scheduling
 * (sm_70 and later) lets finish: tests/cudart/itslock.cu runs them and checks
 * their results, tests/ptx/its.cu puts them in the PTX corpus.
 *   hist_lock:   per-bin spin locks (atomicCAS), the critical section after
 *                the loop, many lanes of a warp on one bin
 *   hist_sleep:  the same lock backing off with __nanosleep
 *   hist_count:  the same lock counting its tries (the loop's registers
 *                change every time round)
 *   handoff:     lane 0 waits for a flag that lane 1 sets after the branch
 *                lane 0 spins in; after __syncwarp() lanes 2.. read what
 *                lane 0 wrote
 *   ring:        lane i waits for lane i-1 (a chain through the warp)
 *   sem_sum:     every thread of a block takes a libcu++ binary_semaphore in
 *                shared memory to add its index to a shared total
 */
#ifndef ITSLOCK_KERNELS_CUH
#define ITSLOCK_KERNELS_CUH

#include <cuda/atomic>
#include <cuda/semaphore>
#include <new>
__device__ void lock(int *m)
{
	while (atomicCAS(m, 0, 1) != 0) {
	}
}

__device__ void unlock(int *m)
{
	__threadfence();
	atomicExch(m, 0);
}

__global__ void hist_lock(const int *in, int n, int *locks, int *bins, int nb)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int b = in[i] % nb;
	lock(&locks[b]);
	volatile int *vb = bins;
	vb[b] = vb[b] + in[i];
	unlock(&locks[b]);
}

__global__ void hist_sleep(const int *in, int n, int *locks, int *bins, int nb)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int b = in[i] % nb;
	unsigned ns = 8;
	while (atomicCAS(&locks[b], 0, 1) != 0) {
		__nanosleep(ns);
		ns = ns < 256 ? ns * 2 : ns;
	}
	volatile int *vb = bins;
	vb[b] = vb[b] + 1;
	unlock(&locks[b]);
}

__global__ void hist_count(const int *in, int n, int *locks, int *bins, int nb, int *tries)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int b = in[i] % nb, t = 0;
	while (atomicCAS(&locks[b], 0, 1) != 0) t++;
	volatile int *vb = bins;
	vb[b] = vb[b] + 1;
	unlock(&locks[b]);
	tries[i] = t;
}

__global__ void handoff(int *flag, int *data, int *out)
{
	int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[w]);
	__shared__ int seen[32];
	if (lane == 0) {
		while (f.load(cuda::memory_order_acquire) == 0) {
		}
		seen[threadIdx.x >> 5] = data[w] * 2;
	}
	if (lane == 1) {
		data[w] = w + 100;
		f.store(1, cuda::memory_order_release);
	}
	__syncwarp();
	if (lane >= 2) out[w * 32 + lane] = seen[threadIdx.x >> 5] + lane;
}

__global__ void ring(int *turn, int *order)
{
	int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	cuda::atomic_ref<int, cuda::thread_scope_device> t(turn[w]);
	while (t.load(cuda::memory_order_acquire) != lane) {
	}
	order[w * 32 + lane] = atomicAdd(&turn[32 * 1024 + w], 1);
	t.store(lane + 1, cuda::memory_order_release);
}

__global__ void sem_sum(int *out)
{
	__shared__ cuda::binary_semaphore<cuda::thread_scope_block> s;
	__shared__ int total;
	if (threadIdx.x == 0) {
		new (&s) cuda::binary_semaphore<cuda::thread_scope_block>(1);
		total = 0;
	}
	__syncthreads();
	s.acquire();
	volatile int *t = &total;
	*t = *t + (int)threadIdx.x;
	s.release();
	__syncthreads();
	if (threadIdx.x == 0) out[blockIdx.x] = total;
}

#endif
