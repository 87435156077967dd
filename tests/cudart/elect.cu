#include <cooperative_groups.h>
#include <cstdio>
#include "check.h"
namespace cg = cooperative_groups;
__device__ unsigned elect_lane(unsigned mask, int *is)
{
	unsigned lane; unsigned p;
	asm volatile("{ .reg .pred e; elect.sync %0|e, %2; selp.u32 %1, 1, 0, e; }" : "=r"(lane), "=r"(p) : "r"(mask));
	*is = p;
	return lane;
}
__global__ void k(int *cnt, unsigned *lanes, int *who)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
	cg::invoke_one(w, [&] { atomicAdd(cnt, 1); });
	if (threadIdx.x % 3) {
		int is;
		unsigned m = __activemask();
		lanes[t] = elect_lane(m, &is);
		who[t] = is;
	} else { lanes[t] = 99; who[t] = -1; }
}
int main()
{
	Mirror<int> cnt(1), who(256);
	Mirror<unsigned> lanes(256);
	k<<<2, 128>>>(cnt.d, lanes.d, who.d);
	cnt.down(), lanes.down(), who.down();
	EXPECT(cnt[0] == 8, "invoke_one ran %d times", cnt[0]);
	for (int t = 0; t < 256; t++) {
		if (t % 128 % 3 == 0) continue;
		int wb = t & ~31, lead = -1;
		for (int j = wb; j < wb + 32; j++) if ((j % 128) % 3) { lead = j - wb; break; }
		EXPECT((int)lanes[t] == lead && who[t] == ((t - wb) == lead), "%d: %u %d want %d", t, lanes[t], who[t], lead);
	}
	std::printf("PASS\n");
	return 0;
}
