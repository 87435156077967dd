/*
 * barrier_kernels.cuh -- the kernels of barrier.cu, shared with the PTX
 * corpus (tests/ptx/mbarrier.cu): libcu++'s block-scope synchronisation
 * objects, which compile to mbarrier.* PTX.
 */
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>

#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

enum { TILE = 256 };

/* every block sums its tiles: copy with memcpy_async onto a barrier, then reduce */
__global__ void tilesum(const float *in, float *out, int ntiles)
{
	__shared__ float buf[TILE];
	__shared__ block_barrier bar;
	auto block = cg::this_thread_block();
	if (block.thread_rank() == 0) init(&bar, block.size());
	block.sync();
	float acc = 0;
	for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
		cuda::memcpy_async(block, buf, in + (size_t)t * TILE, sizeof buf, bar);
		bar.arrive_and_wait();
		acc += buf[(threadIdx.x * 7) % TILE];
		bar.arrive_and_wait();   /* everyone read before the next copy */
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* phases with tokens, and threads that leave the barrier early */
__global__ void phases(int *out, int rounds)
{
	__shared__ int cell[64];
	__shared__ block_barrier bar;
	int t = threadIdx.x;
	if (t == 0) init(&bar, blockDim.x);
	__syncthreads();
	cell[t] = t;
	int leave = t % 4 == 3 ? 2 : rounds;    /* a quarter stops after two rounds */
	int acc = 0;
	for (int r = 0; r < rounds; r++) {
		if (r == leave) { bar.arrive_and_drop(); break; }
		auto tok = bar.arrive();
		bar.wait(std::move(tok));
		acc += cell[(t + 1) % blockDim.x];
		auto tok2 = bar.arrive();
		bar.wait(std::move(tok2));
		cell[t] += r + 1;
	}
	out[blockIdx.x * blockDim.x + t] = acc;
}

/* two-stage pipeline: the whole block produces and consumes */
__global__ void pipe2(const int *in, int *out, int ntiles)
{
	__shared__ int buf[2][TILE];
	__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
	auto block = cg::this_thread_block();
	auto pipe = cuda::make_pipeline(block, &state);
	long long acc = 0;
	int fetched = 0;
	for (int t = 0; t < ntiles; t++) {
		for (; fetched < ntiles && fetched < t + 2; fetched++) {
			pipe.producer_acquire();
			cuda::memcpy_async(block, buf[fetched % 2], in + (size_t)fetched * TILE,
			                   sizeof buf[0], pipe);
			pipe.producer_commit();
		}
		pipe.consumer_wait();
		acc += buf[t % 2][threadIdx.x] * (t + 1);
		pipe.consumer_release();
	}
	out[threadIdx.x] = (int)acc;
}
