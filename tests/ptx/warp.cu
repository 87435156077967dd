// warp.cu -- warp intrinsics, special registers, barriers with reductions.
__global__ void warps(int *o, float *f)
{
	int t = threadIdx.x;
	unsigned m = __activemask();
	int v = o[t];
	int s = __shfl_sync(0xffffffff, v, 3);
	s += __shfl_up_sync(0xffffffff, v, 1);
	s += __shfl_down_sync(m, v, 2, 16);
	s += __shfl_xor_sync(0xffffffff, v, 4);
	float fs = __shfl_down_sync(0xffffffff, f[t], 1);
	double ds = __shfl_sync(0xffffffff, (double)f[t], 0);
	unsigned b = __ballot_sync(0xffffffff, v > 0);
	int all = __all_sync(0xffffffff, v > 1);
	int any = __any_sync(0xffffffff, v > 2);
	int uni = __uni_sync(0xffffffff, v > 3);
	unsigned mt = __match_any_sync(0xffffffff, v);
	int pred;
	unsigned ma = __match_all_sync(0xffffffff, v, &pred);
	int r = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(0xffffffff, v) +
	        __reduce_max_sync(0xffffffff, (unsigned)v) + __reduce_or_sync(0xffffffff, v);
	__syncwarp();
	__syncwarp(m);
	unsigned lane, smid, warpid, lt, ge;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
	asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
	asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
	asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
	long long c = clock64();
	int c32 = clock();
	unsigned long long gt;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
	unsigned env;
	asm volatile("mov.u32 %0, %%envreg3;" : "=r"(env));
	unsigned dsm;
	asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsm));
	int cnt = __syncthreads_count(v > 0);
	int an = __syncthreads_and(v > 0);
	int orr = __syncthreads_or(v > 0);
	__nanosleep(100);
	o[t] = s + b + all + any + uni + mt + ma + pred + r + lane + smid + warpid + lt + ge +
	       (int)c + c32 + (int)gt + env + dsm + cnt + an + orr + (int)fs + (int)ds;
}

template <int N>
__device__ float warpsum(float v)
{
	for (int o = N / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
	return v;
}

__global__ void reduce(const float *in, float *out, int n)
{
	__shared__ float part[32];
	float v = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		v += in[i];
	v = warpsum<32>(v);
	if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;
		v = warpsum<32>(v);
		if (threadIdx.x == 0) atomicAdd(out, v);
	}
}
