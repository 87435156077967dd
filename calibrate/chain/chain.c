/*
 * chain.c -- host side of chain.cu: cycles from an instruction's issue to
 * its dependant's, per unit, each kernel one warp long.
 *
 * Links: 16 x 16 per kernel at --size small, 16 x 64 at default, 16 x 256
 * large; one launch per unit (mma only where the device reports compute
 * capability 8.0 or more, which mma.sync m16n8k16 needs; ldg only where
 * global loads are cached in an L1).  The chains
 * start from each lane's own value and the host checks what they end at:
 * exactly, by the same arithmetic in C (fmaf, fma, 32-bit wrap-around),
 * for fp32/fp64/integer; by the value's range for the approximate SFU
 * functions (sin decays toward 0, rsqrt settles at 1, ex2 climbs to +inf);
 * 16n for every tensor-core accumulator; the start address for the loads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

typedef enum Kind { K_F32, K_U32, K_F64, K_OTHER } Kind;

typedef struct Unit {
	const char *name;        /* chain_NAME, metric chain.NAME */
	Kind kind;
	double a, b;             /* operands */
	const char *what;
} Unit;

static const Unit units[] = {
	{ "ffma", K_F32, 0.999, 0.5, "dependent fp32 fma (fma.rn.f32), cycles per instruction" },
	{ "fadd", K_F32, 0.25, 0, "dependent fp32 add (add.rn.f32), cycles per instruction" },
	{ "iadd", K_U32, 7, 0, "dependent integer add (add.u32), cycles per instruction" },
	{ "imad", K_U32, 3, 1, "dependent integer multiply-add (mad.lo.u32), cycles per instruction" },
	{ "sin", K_F32, 0, 0, "dependent SFU sin.approx.f32, cycles per instruction" },
	{ "rsqrt", K_F32, 0, 0, "dependent SFU rsqrt.approx.f32, cycles per instruction" },
	{ "ex2", K_F32, 0, 0, "dependent SFU ex2.approx.f32, cycles per instruction" },
	{ "dfma", K_F64, 0.999, 0.5, "dependent fp64 fma (fma.rn.f64), cycles per instruction" },
	{ "mma", K_OTHER, 0, 0, "dependent mma.sync m16n8k16 f16->f32 (tensor core), cycles each" },
	{ "lds", K_OTHER, 0, 0, "shared-memory load chain (ld.shared.u32), cycles per load" },
	{ "ldg", K_OTHER, 0, 0, "global load chain hitting the L1 (ld.global.u64), cycles per load" },
};

enum { NUNIT = sizeof units / sizeof units[0] };

/* lane l's final value, checked; 0 ok, else 1 with msg */
static int check(const Unit *u, unsigned links, const void *got, CUdeviceptr g,
                 char *msg, size_t msgn)
{
	for (unsigned l = 0; l < 32; l++) {
		double v = 0, want = 0;
		int ok = 1;
		if (!strcmp(u->name, "ffma") || !strcmp(u->name, "fadd")) {
			float x = 1.0f + (float)l;
			for (unsigned i = 0; i < links; i++)
				x = u->name[1] == 'f' ? fmaf(x, (float)u->a, (float)u->b) : x + (float)u->a;
			v = ((const float *)got)[l];
			want = x;
			ok = v == want;
		} else if (u->kind == K_U32) {
			unsigned x = l;
			for (unsigned i = 0; i < links; i++)
				x = u->name[1] == 'a' ? x + (unsigned)u->a : x * (unsigned)u->a + (unsigned)u->b;
			v = ((const unsigned *)got)[l];
			want = x;
			ok = v == want;
		} else if (u->kind == K_F64) {
			double x = 1.0 + l;
			for (unsigned i = 0; i < links; i++)
				x = fma(x, u->a, u->b);
			v = ((const double *)got)[l];
			want = x;
			ok = v == want;
		} else if (!strcmp(u->name, "sin")) {
			v = ((const float *)got)[l];
			ok = v > 0 && v < 1.0 + l / 32.0;
		} else if (!strcmp(u->name, "rsqrt")) {
			v = ((const float *)got)[l];
			ok = fabs(v - 1) < 1e-3;
		} else if (!strcmp(u->name, "ex2")) {
			v = ((const float *)got)[l];
			ok = v > 0 && !isnan(v);
		} else if (!strcmp(u->name, "mma")) {
			v = ((const float *)got)[l];
			want = 4.0 * links;
			ok = v == want;
		} else if (!strcmp(u->name, "lds")) {
			v = ((const unsigned *)got)[l];
			want = ((const unsigned *)got)[0] + 4.0 * l;
			ok = v == want;
		} else {
			v = (double)((const unsigned long long *)got)[l];
			want = (double)(g + 8ull * l);
			ok = ((const unsigned long long *)got)[l] == g + 8ull * l;
		}
		if (!ok) {
			snprintf(msg, msgn, "chain_%s: lane %u ended at %.9g, expected %.9g", u->name, l,
			         v, want);
			return 1;
		}
	}
	return 0;
}

/* launch chain_NAME with n loop iterations; *cyc = cycles per link */
static int run_unit(CUmodule mod, const Unit *u, unsigned n, CUdeviceptr out, CUdeviceptr cycd,
                    CUdeviceptr g, double *cyc, char *msg, size_t msgn)
{
	char fname[32];
	CUfunction f;
	long long cycles;
	unsigned char got[32 * 8];
	float fa = (float)u->a, fb = (float)u->b;
	unsigned ua = (unsigned)u->a, ub = (unsigned)u->b;
	double da = u->a, db = u->b;
	void *pf[] = { &n, &fa, &fb, &out, &cycd }, *pu[] = { &n, &ua, &ub, &out, &cycd };
	void *pd[] = { &n, &da, &db, &out, &cycd }, *po[] = { &n, &out, &cycd };
	void *pg[] = { &n, &g, &out, &cycd };
	void **params = u->kind == K_F32 ? pf : u->kind == K_U32 ? pu : u->kind == K_F64 ? pd : po;
	int rc = 0;

	if (!strcmp(u->name, "ldg"))
		params = pg;
	snprintf(fname, sizeof fname, "chain_%s", u->name);
	CHECK_CU(cuModuleGetFunction(&f, mod, fname));
	CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuCtxSynchronize());
	CHECK_CU(cuMemcpyDtoH(&cycles, cycd, sizeof cycles));
	CHECK_CU(cuMemcpyDtoH(got, out, sizeof got));
	*cyc = (double)cycles / (16.0 * n);
	rc = check(u, 16 * n, got, g, msg, msgn);
out:
	return rc;
}

int cal_chain_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned iters[] = { 16, 64, 256 };
	WlGpu g = { 0 };
	CalDev d;
	CUdeviceptr o = 0, cyc = 0, gl = 0;
	unsigned long long self[32];
	int rc, ran = 0;

	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cal_dev_query(g.dev, &d));
	CHECK_CU(cuMemAlloc(&o, 32 * 8));
	CHECK_CU(cuMemAlloc(&cyc, 8));
	CHECK_CU(cuMemAlloc(&gl, sizeof self));
	for (int l = 0; l < 32; l++)
		self[l] = gl + 8ull * l;
	CHECK_CU(cuMemcpyHtoD(gl, self, sizeof self));
	for (int i = 0; i < NUNIT; i++) {
		double c;
		char name[CAL_NAME];
		if ((!strcmp(units[i].name, "mma") && d.cc < 80) ||
		    (!strcmp(units[i].name, "ldg") && !d.l1_global))
			continue;
		if ((rc = run_unit(g.mod, &units[i], iters[env->size], o, cyc, gl, &c, msg, msgn)))
			goto out;
		snprintf(name, sizeof name, "chain.%s", units[i].name);
		cal_metric(out, name, c, "cycles", units[i].what);
		ran++;
	}
	snprintf(msg, msgn, "%d units, %u dependent instructions each", ran, 16 * iters[env->size]);
out:
	wl_free(&o);
	wl_free(&cyc);
	wl_free(&gl);
	wl_close(&g);
	return rc;
}
