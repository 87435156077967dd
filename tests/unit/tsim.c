/* tsim.c -- one kernel on the timing model for the unit tests (tsim.h). */
#include "tsim.h"

#include "analysis/schedule.h"
#include "base/base.h"
#include "func/prog.h"
#include "unit.h"

Config tsim_config(void)
{
	Config c;
	config_defaults(&c);
	c.sim_mode = SIM_MODE_TIMING;
	c.sm_count = 1;
	c.sim_progress = 0;
	c.compiler_schedule = SCHED_PRESSURE;   /* exact cycles of the allocation they were taken on */
	return c;
}

KernelStats tsim_run(const Config *c, const char *ptx, uint32_t grid, uint32_t threads)
{
	KernelStats ks;
	memset(&ks, 0, sizeof ks);
	Gpu *g = gpu_new(c);
	Program *p = NULL;
	if (gpu_load_ptx(g, ptx, strlen(ptx), "test.ptx", &p)) {
		unit_fail(__FILE__, __LINE__, "load: %s", err_msg());
		gpu_free(g);
		return ks;
	}
	uint64_t buf;
	CHECK_EQ(gpu_mem_alloc(g, 4096, &buf), RF_OK);
	if (gpu_launch(g, p, 0, (Dim3){grid, 1, 1}, (Dim3){threads, 1, 1}, 0, &buf, 8))
		unit_fail(__FILE__, __LINE__, "launch: %s", err_msg());
	int n;
	const KernelStats *all = gpu_kernel_stats(g, &n);
	if (n == 1) ks = all[0];
	gpu_unload(g, p);
	gpu_free(g);
	return ks;
}
