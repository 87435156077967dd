/*
 * atomics.c -- host side of atomics.cu: atomicAdd throughput, in adds per
 * core cycle for the whole GPU, for one global counter, a global counter
 * per warp, a global counter per thread, one shared counter per CTA and a
 * shared counter per thread.
 *
 * Grid: 2 CTAs of 256 threads per SM (16 warps each SM); every thread adds
 * 4 times at --size small, 16 at default, 64 large.  Time: the kernels'
 * %globaltimer stamps (first start to last end) times the core clock, and
 * (sim) the cycles rfsim counted for the launch.  Check: every counter
 * holds exactly the adds made to it.
 */
#include <math.h>
#include <stdlib.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

enum { THREADS = 256, CTAS_PER_SM = 2 };

typedef struct Case {
	const char *name;        /* metric atomics.NAME */
	int shared;              /* atom_shared, else atom_global */
	unsigned mode;
	const char *what;
} Case;

static const Case cases[] = {
	{ "global_same", 0, 0, "atomicAdd to one global address, adds per cycle (GPU)" },
	{ "global_warp", 0, 1, "atomicAdd to one global address per warp, adds per cycle (GPU)" },
	{ "global_thread", 0, 2, "atomicAdd to one global address per thread, adds per cycle (GPU)" },
	{ "shared_same", 1, 0, "atomicAdd to one shared address per CTA, adds per cycle (GPU)" },
	{ "shared_thread", 1, 1, "atomicAdd to one shared address per thread, adds per cycle (GPU)" },
};

/* the value counter i must hold */
static unsigned want(const Case *c, unsigned i, unsigned threads, unsigned k)
{
	if (c->shared)
		return c->mode == 0 ? (i % THREADS == 0 ? THREADS * k : 0) : k;
	return c->mode == 0 ? threads * k : c->mode == 1 ? 32 * k : k;
}

int cal_atomics_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned adds[] = { 4, 16, 64 };
	WlGpu g = { 0 };
	CalDev d;
	CUfunction f[2];
	CUdeviceptr ctr = 0, times = 0;
	unsigned *h = NULL;
	unsigned long long *ht = NULL;
	int rc;

	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cal_dev_query(g.dev, &d));
	CHECK_CU(cuModuleGetFunction(&f[0], g.mod, "atom_global"));
	CHECK_CU(cuModuleGetFunction(&f[1], g.mod, "atom_shared"));
	unsigned ctas = (unsigned)d.sms * CTAS_PER_SM, threads = ctas * THREADS, k = adds[env->size];
	if (!(h = malloc((size_t)threads * 4)) || !(ht = malloc((size_t)ctas * 16))) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	CHECK_CU(cuMemAlloc(&ctr, (size_t)threads * 4));
	CHECK_CU(cuMemAlloc(&times, (size_t)ctas * 16));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const Case *c = &cases[i];
		unsigned mode = c->mode;
		void *params[] = { &ctr, &mode, &k, &times };
		CHECK_CU(cuMemsetD32(ctr, 0, threads));
		CHECK_CU(cuLaunchKernel(f[c->shared], ctas, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL));
		CHECK_CU(cuCtxSynchronize());
		double sim = cal_stat(env, "cycles");
		CHECK_CU(cuMemcpyDtoH(h, ctr, (size_t)threads * 4));
		CHECK_CU(cuMemcpyDtoH(ht, times, (size_t)ctas * 16));
		unsigned n = c->shared ? threads : c->mode == 0 ? 1 : c->mode == 1 ? threads / 32 : threads;
		for (unsigned j = 0; j < n; j++)
			if (h[j] != want(c, j, threads, k)) {
				snprintf(msg, msgn, "%s: counter %u holds %u, expected %u", c->name, j, h[j],
				         want(c, j, threads, k));
				rc = 1;
				goto out;
			}
		unsigned long long t0 = ht[0], t1 = ht[1];
		for (unsigned j = 1; j < ctas; j++) {
			t0 = ht[2 * j] < t0 ? ht[2 * j] : t0;
			t1 = ht[2 * j + 1] > t1 ? ht[2 * j + 1] : t1;
		}
		double total = (double)threads * k, cycles = (double)(t1 - t0) * d.clock_mhz / 1000;
		char name[CAL_NAME];
		snprintf(name, sizeof name, "atomics.%s", c->name);
		CalMetric *m = cal_metric(out, name, t1 > t0 ? total / cycles : NAN, "per cycle",
		                          c->what);
		m->sim = total / sim;
	}
	snprintf(msg, msgn, "%u CTAs of %d threads, %u adds each", ctas, THREADS, k);
out:
	wl_free(&ctr);
	wl_free(&times);
	wl_close(&g);
	free(h);
	free(ht);
	return rc;
}
