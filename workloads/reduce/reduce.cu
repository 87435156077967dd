/*
 * reduce.cu -- sum of a vector, in two steps per block: shared memory,
 * then warp shuffles.
 *
 * Each thread first sums a grid-stride slice of the input in a register.
 * The block then halves its partial sums through dynamic shared memory
 * with a barrier per level (bar.sync) until 64 remain; the first warp
 * adds those pairwise and finishes with five __shfl_down_sync steps, no
 * barriers and no shared memory.  Thread 0 then delivers the block's
 * sum: the unsigned kernel adds it into one word with atomicAdd (exact:
 * integer addition is associative, mod 2^32), the float kernel writes it
 * to partial[blockIdx.x] so that the host can sum those with a second,
 * single-block launch of the same kernel; float atomics would make the
 * result depend on block completion order.
 *
 * The block size must be a power of two, at least 64, with blockDim.x
 * elements of dynamic shared memory (the host sets both).  One template
 * body serves both types; extern "C" wrappers keep the names unmangled.
 */

template <typename T>
__device__ __forceinline__ T block_sum(T v)
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *s = reinterpret_cast<T *>(smem_raw);
	unsigned tid = threadIdx.x;

	s[tid] = v;
	__syncthreads();
	for (unsigned half = blockDim.x / 2; half >= 64; half /= 2) {
		if (tid < half)
			s[tid] = v = v + s[tid + half];
		__syncthreads();
	}
	if (tid < 32) {
		v += s[tid + 32];
		for (int off = 16; off > 0; off /= 2)
			v += __shfl_down_sync(0xffffffffu, v, off);
	}
	return v;  /* the block's sum, in thread 0 only */
}

template <typename T>
__device__ __forceinline__ T thread_sum(const T *__restrict__ in, int n)
{
	T v = 0;
	int stride = gridDim.x * blockDim.x;

	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		v += in[i];
	return v;
}

/* *out += sum(in[0..n)), mod 2^32; *out must be zeroed before the launch */
extern "C" __global__ void reduce_u32(const unsigned *__restrict__ in, int n,
                                      unsigned *__restrict__ out)
{
	unsigned v = block_sum(thread_sum(in, n));

	if (threadIdx.x == 0)
		atomicAdd(out, v);
}

/* partial[blockIdx.x] = sum of this block's slice of in[0..n) */
extern "C" __global__ void reduce_f32(const float *__restrict__ in, int n,
                                      float *__restrict__ partial)
{
	float v = block_sum(thread_sum(in, n));

	if (threadIdx.x == 0)
		partial[blockIdx.x] = v;
}
