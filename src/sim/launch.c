/*
 * launch.c -- the checks a launch passes before it runs, in either mode:
 * its shape (grid, block, shared memory, parameters) against the config's
 * limits and the kernel's, its thread-block clusters (asked for, or the
 * kernel's __cluster_dims__), and, for a cooperative launch, that the whole
 * grid fits the GPU at once.  gpu.c's launch calls them; a refusal is an
 * input error (RF_EINPUT) with the reason in err_msg().
 */
#include "sim/launch.h"

#include "analysis/occupancy.h"
#include "base/base.h"
#include "func/warp.h"
#include "ptx/ptx.h"
#include "func/prog.h"

int launch_check(const Config *cfg, const Program *p, int k, Dim3 grid, Dim3 block,
                 uint32_t dyn, size_t psize)
{
	KernelAttr a;
	prog_kernel_attr(p, k, &a);
	const char *name = prog_kernel_name(p, k);
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	int64_t maxt = cfg->block_max_threads < a.max_threads ? cfg->block_max_threads
	                                                       : a.max_threads;
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z) {
		err_set("launch of %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero", name,
		        grid.x, grid.y, grid.z, block.x, block.y, block.z);
		return RF_EINPUT;
	}
	if (block.x > 1024 || block.y > 1024 || block.z > 64 || (int64_t)threads > maxt) {
		err_set("launch of %s: block (%u,%u,%u) has %llu threads; at most %lld allowed "
		        "(x, y <= 1024, z <= 64)", name, block.x, block.y, block.z,
		        (unsigned long long)threads, (long long)maxt);
		return RF_EINPUT;
	}
	if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535) {
		err_set("launch of %s: grid (%u,%u,%u) exceeds (2^31-1, 65535, 65535)", name,
		        grid.x, grid.y, grid.z);
		return RF_EINPUT;
	}
	uint64_t shm = (uint64_t)a.shared_bytes + dyn;
	if (shm > (uint64_t)cfg->block_max_shared_bytes) {
		err_set("launch of %s: %u bytes of static + %u of dynamic shared memory exceed the "
		        "%lld per block (config key block.max_shared_bytes)", name, a.shared_bytes,
		        dyn, (long long)cfg->block_max_shared_bytes);
		return RF_EINPUT;
	}
	if (psize < a.param_bytes) {
		err_set("launch of %s: %zu bytes of parameters given, the kernel takes %u", name,
		        psize, a.param_bytes);
		return RF_EINPUT;
	}
	return RF_OK;
}

/* CTAs of the launch the GPU holds at once: the occupancy (without the
 * register limit under compiler.regalloc = 0, whose virtual registers are
 * no machine resource, as in timing.c) times the SMs; *o and *per_sm say why */
uint64_t launch_resident_ctas(const Config *cfg, const Launch *L, Occupancy *o,
                              int32_t *per_sm)
{
	occupancy_compute(cfg, (int32_t)L->nthreads, L->img->regs_per_thread,
	                  (int64_t)L->img->shared_static + L->dyn_shmem, o);
	*per_sm = o->ctas_per_sm;
	if (!cfg->compiler_regalloc) {
		*per_sm = o->by[OCC_THREADS];
		if (o->by[OCC_CTAS] < *per_sm) *per_sm = o->by[OCC_CTAS];
		if (o->by[OCC_SHARED] < *per_sm) *per_sm = o->by[OCC_SHARED];
	}
	return (uint64_t)*per_sm * (uint64_t)cfg->sm_count;
}

/* a cooperative grid fits the GPU at once */
int launch_check_coop(const Config *cfg, const Launch *L)
{
	Occupancy o;
	int32_t per_sm;
	uint64_t fit = launch_resident_ctas(cfg, L, &o, &per_sm);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	if (ncta <= fit) return RF_OK;
	launch_fault(L, FAULT_COOP_TOO_LARGE);
	err_set("cooperative launch of %s: %llu blocks cannot all be resident at once: %d blocks "
	        "of %u threads per SM (limited by %s) x %lld SMs = %llu "
	        "(cudaOccupancyMaxActiveBlocksPerMultiprocessor sizes a cooperative grid)",
	        L->kname, (unsigned long long)ncta, per_sm, L->nthreads,
	        occ_limit_name[o.limiter], (long long)cfg->sm_count, (unsigned long long)fit);
	return RF_EINPUT;
}

/* the launch's clusters: asked for (cluster, non-zero), or the kernel's
 * .reqnctapercluster (__cluster_dims__), or one CTA each */
int launch_set_clusters(const Program *p, int k, Launch *L, Dim3 cluster, int coop)
{
	const Func *f = &p->m->funcs[p->kernels[k]];
	const int32_t *rq = f->reqnctapercluster;
	Dim3 want = {rq[0] > 0 ? (uint32_t)rq[0] : 0, rq[1] > 0 ? (uint32_t)rq[1] : 1,
	             rq[2] > 0 ? (uint32_t)rq[2] : 1};
	if (cluster.x) {
		if (!cluster.y) cluster.y = 1;
		if (!cluster.z) cluster.z = 1;
		if (want.x && (want.x != cluster.x || want.y != cluster.y || want.z != cluster.z)) {
			err_set("launch of %s: clusters of (%u,%u,%u) blocks asked for, but the kernel "
			        "was compiled for (%u,%u,%u) (.reqnctapercluster, __cluster_dims__)",
			        L->kname, cluster.x, cluster.y, cluster.z, want.x, want.y, want.z);
			return RF_EINPUT;
		}
		want = cluster;
	}
	L->explicit_cluster = want.x != 0 || (f->attr & ATTR_EXPLICIT_CLUSTER);
	if (!want.x) want = (Dim3){1, 1, 1};
	uint64_t n = (uint64_t)want.x * want.y * want.z;
	if (n > CLUSTER_MAX) {
		err_set("launch of %s: clusters of (%u,%u,%u) = %llu blocks; at most %d", L->kname,
		        want.x, want.y, want.z, (unsigned long long)n, CLUSTER_MAX);
		return RF_EINPUT;
	}
	if (L->grid.x % want.x || L->grid.y % want.y || L->grid.z % want.z) {
		err_set("launch of %s: grid (%u,%u,%u) is not a whole number of clusters of "
		        "(%u,%u,%u) blocks", L->kname, L->grid.x, L->grid.y, L->grid.z, want.x,
		        want.y, want.z);
		return RF_EINPUT;
	}
	if (coop && n > 1) {
		err_set("launch of %s: a cooperative launch with thread-block clusters is not "
		        "supported by rfsim", L->kname);
		return RF_EINPUT;
	}
	L->cluster = want;
	L->csize = (uint32_t)n;
	return RF_OK;
}
