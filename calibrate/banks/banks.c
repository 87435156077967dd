/*
 * banks.c -- host side of banks.cu: cycles per dependent shared-memory
 * load with 1-, 2-, 4-, 8-, 16- and 32-way bank conflicts (strides of that
 * many words).  One warp per launch; 16 x 8 loads a lane at --size small,
 * 16 x 32 at default, 16 x 128 large.  Check: every lane's chain ends at
 * its own word's address, as it started.
 *
 * Reported: banks.wN for N = 1..32 ways, and the curve banks/lds.
 */
#include <stdlib.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

int cal_banks_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned iters[] = { 8, 32, 128 };
	WlGpu g = { 0 };
	CUfunction f;
	CUdeviceptr o = 0, cyc = 0;
	int rc;

	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "banks"));
	CHECK_CU(cuMemAlloc(&o, 32 * 4));
	CHECK_CU(cuMemAlloc(&cyc, 8));
	CalCurve *c = cal_curve(out, "banks", "lds", "lanes per bank (ways)", "cycles per load");
	unsigned n = iters[env->size];
	for (unsigned ways = 1; ways <= 32; ways *= 2) {
		unsigned got[32];
		long long cycles;
		void *params[] = { &n, &ways, &o, &cyc };
		CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
		CHECK_CU(cuCtxSynchronize());
		CHECK_CU(cuMemcpyDtoH(got, o, sizeof got));
		CHECK_CU(cuMemcpyDtoH(&cycles, cyc, sizeof cycles));
		for (unsigned l = 1; l < 32; l++)
			if (got[l] != got[0] + 4 * ((l * ways) & 1023)) {
				snprintf(msg, msgn, "%u-way: lane %u ended at %#x, expected %#x", ways, l,
				         got[l], got[0] + 4 * ((l * ways) & 1023));
				rc = 1;
				goto out;
			}
		char name[CAL_NAME];
		double y = (double)cycles / (16.0 * n);
		snprintf(name, sizeof name, "banks.w%u", ways);
		cal_metric(out, name, y, "cycles",
		           "dependent shared-memory loads, this many lanes per bank, cycles each");
		cal_point(c, ways, y);
	}
	snprintf(msg, msgn, "1- to 32-way conflicts, %u dependent loads each", 16 * n);
out:
	wl_free(&o);
	wl_free(&cyc);
	wl_close(&g);
	return rc;
}
