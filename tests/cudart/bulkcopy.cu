// cuda::memcpy_async of 16-byte-aligned sizes onto a block-scope cuda::barrier: on sm_90
// libcu++ issues cp.async.bulk with the barrier's complete_tx
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cstdio>
#include "check.h"
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out, int n)
{
	__shared__ alignas(16) float tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	auto blk = cg::this_thread_block();
	if (blk.thread_rank() == 0) init(&bar, blk.size());
	blk.sync();
	if (blk.thread_rank() == 0)
		cuda::memcpy_async(tile, in + blockIdx.x * 256, cuda::aligned_size_t<16>(256 * sizeof(float)), bar);
	bar.arrive_and_wait();
	out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x] * 2;
}
int main()
{
	Mirror<float> in(1024), out(1024);
	for (int i = 0; i < 1024; i++) in[i] = i;
	in.up();
	k<<<4, 256>>>(in.d, out.d, 1024);
	out.down();
	for (int i = 0; i < 1024; i++) { int b = i / 256, t = i % 256; EXPECT(out[i] == 2 * (b * 256 + 255 - t), "%d: %f", i, out[i]); }
	printf("PASS\n");
}
