// atomics.cu -- atomics, reductions, fences and memory orders.
#include <cuda/atomic>

__global__ void atoms(int *i, unsigned *u, float *f, double *d, unsigned long long *ull)
{
	int t = threadIdx.x;
	atomicAdd(i, t);
	int old = atomicAdd(i + 1, 1);
	atomicSub(i + 2, t);
	atomicExch(i + 3, t);
	atomicMin(i + 4, t); atomicMax(i + 5, t);
	atomicInc(u, 100u); atomicDec(u + 1, 100u);
	atomicAnd(i + 6, t); atomicOr(i + 7, t); atomicXor(i + 8, old);
	int c = atomicCAS(i + 9, t, t + 1);
	atomicAdd(f, 1.5f);
	float fo = atomicAdd(f + 1, 2.5f);
	atomicAdd(d, 1.0);
	atomicAdd(ull, 3ull);
	atomicCAS(ull + 1, 1ull, (unsigned long long)c);
	atomicMin(ull + 2, (unsigned long long)t);
	__shared__ int sh[4];
	atomicAdd(&sh[t & 3], 1);
	atomicCAS(&sh[0], 0, t);
	__threadfence();
	__threadfence_block();
	__threadfence_system();
	i[10] = sh[t & 3] + (int)fo;
	atomicAdd_block(i + 11, 1);
	atomicAdd_system(i + 12, 1);
}

__global__ void orders(int *p, int *flag)
{
	cuda::atomic_ref<int, cuda::thread_scope_device> a(*p);
	a.fetch_add(1, cuda::memory_order_relaxed);
	a.fetch_add(1, cuda::memory_order_acq_rel);
	a.store(5, cuda::memory_order_release);
	int v = a.load(cuda::memory_order_acquire);
	cuda::atomic_ref<int, cuda::thread_scope_system> s(*flag);
	s.fetch_or(v, cuda::memory_order_seq_cst);
	cuda::atomic_ref<int, cuda::thread_scope_block> b(p[1]);
	int exp = 0;
	b.compare_exchange_strong(exp, 7, cuda::memory_order_acq_rel);
	cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
	volatile int *vp = p + 2;
	*vp = *vp + 1;
}
