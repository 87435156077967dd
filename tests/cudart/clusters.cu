// thread-block clusters (sm_90): distributed shared memory, cluster barriers,
// cluster geometry, launches with __cluster_dims__ and cudaLaunchKernelEx
#include <cooperative_groups.h>
#include <cstdio>
#include "check.h"
namespace cg = cooperative_groups;

// each CTA reads the tile of the next CTA of its cluster (ring), round after round
__global__ void __cluster_dims__(4, 1, 1) ring(const int *in, int *out, int rounds)
{
	__shared__ int tile[2][128];
	cg::cluster_group cl = cg::this_cluster();
	unsigned rank = cl.block_rank(), n = cl.num_blocks();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];
	for (int r = 0; r < rounds; r++) {
		tile[r & 1][threadIdx.x] = v;
		cl.sync();
		int *next = cl.map_shared_rank(&tile[r & 1][0], (rank + 1) % n);
		v = next[threadIdx.x] + 1;
	}
	cl.sync();                 // no CTA leaves while another may read its tile
	out[i] = v;
}

// geometry of a 2x2 cluster: what blockIdx and the cluster registers must agree on
__global__ void __cluster_dims__(2, 2, 1) geom(int *out)
{
	cg::cluster_group cl = cg::this_cluster();
	if (threadIdx.x) return;
	int b = blockIdx.y * gridDim.x + blockIdx.x;
	dim3 bi = cl.block_index(), dims = cl.dim_blocks();
	out[b * 6 + 0] = bi.x; out[b * 6 + 1] = bi.y; out[b * 6 + 2] = cl.block_rank();
	out[b * 6 + 3] = dims.x * 10 + dims.y; out[b * 6 + 4] = cl.num_blocks();
	unsigned cid;
	asm("mov.u32 %0, %%clusterid.y;" : "=r"(cid));
	out[b * 6 + 5] = cid;
}

// every CTA of a cluster adds into rank 0's shared counter
__global__ void dsum(const int *in, int *out)
{
	__shared__ int acc;
	cg::cluster_group cl = cg::this_cluster();
	if (threadIdx.x == 0) acc = 0;
	cl.sync();
	int *root = cl.map_shared_rank(&acc, 0);
	atomicAdd(root, in[blockIdx.x * blockDim.x + threadIdx.x]);
	cl.sync();
	if (cl.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / cl.num_blocks()] = acc;
}

int main()
{
	const int n = 4096;
	Mirror<int> in(n), out(n);
	for (int i = 0; i < n; i++) in[i] = i * 3 + 1;
	in.up();

	const int rounds = 6;
	ring<<<n / 128, 128>>>(in.d, out.d, rounds);
	CHECK(cudaGetLastError());
	out.down();
	for (int i = 0; i < n; i++) {
		int b = i / 128, t = i % 128, c0 = b / 4 * 4;
		int src = c0 + (b - c0 + rounds) % 4;
		EXPECT(out[i] == in[src * 128 + t] + rounds, "ring %d: %d want %d", i, out[i], in[src * 128 + t] + rounds);
	}

	geom<<<dim3(4, 6), 32>>>(out.d);
	out.down();
	for (int y = 0; y < 6; y++)
		for (int x = 0; x < 4; x++) {
			int *o = &out[(y * 4 + x) * 6];
			EXPECT(o[0] == x % 2 && o[1] == y % 2 && o[2] == x % 2 + 2 * (y % 2) && o[3] == 22 &&
			       o[4] == 4 && o[5] == y / 2, "geom (%d,%d): %d %d %d %d %d %d", x, y, o[0], o[1], o[2], o[3], o[4], o[5]);
		}

	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(16);
	cfg.blockDim = dim3(64);
	cudaLaunchAttribute at[1];
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = 8; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
	cfg.attrs = at; cfg.numAttrs = 1;
	CHECK(cudaLaunchKernelEx(&cfg, dsum, (const int *)in.d, out.d));
	out.down();
	for (int c = 0; c < 2; c++) {
		long s = 0;
		for (int i = c * 512; i < c * 512 + 512; i++) s += in[i];
		EXPECT(out[c] == s, "dsum %d: %d want %ld", c, out[c], s);
	}
	int ncl = 0, csz = 0;
	CHECK(cudaOccupancyMaxActiveClusters(&ncl, dsum, &cfg));
	EXPECT(ncl > 0, "max active clusters %d", ncl);
	CHECK(cudaOccupancyMaxPotentialClusterSize(&csz, dsum, &cfg));
	EXPECT(csz >= 8, "max cluster size %d", csz);
	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, ring));
	EXPECT(fa.requiredClusterWidth == 4 && fa.requiredClusterHeight == 1, "ring's cluster %d %d", fa.requiredClusterWidth, fa.requiredClusterHeight);

	// a grid that is no whole number of clusters is refused
	cfg.gridDim = dim3(12);
	EXPECT(cudaLaunchKernelEx(&cfg, dsum, (const int *)in.d, out.d) != cudaSuccess, "12 blocks in clusters of 8");
	cudaGetLastError();
	std::printf("PASS\n");
	return 0;
}
