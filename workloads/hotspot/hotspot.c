/*
 * hotspot.c -- host side of hotspot (see hotspot.cu): `steps` time steps
 * of the chip temperature stencil, two per launch (pyramid height 2, the
 * last launch taking what is left), ping-ponging two temperature buffers.
 *
 * Sizes (nx x ny, steps): 50x54, 5 steps (small); 640x600, 8 steps
 * (default); 1280x1200, 8 steps (large).  Tiles of 32x32 cells produce
 * 28x28 outputs at two steps per launch (30x30 at one), so the grids are
 * 2x2 (small), 23x22 = 506 (default) and 46x43 = 1,978 (large) blocks of
 * 32x8 threads per launch.  No size is a multiple of the tile, and nx !=
 * ny, so the clamped loads and the guarded stores all run.
 *
 * Inputs: temperatures uniform in [320, 350] K and powers in [0, 0.5]
 * (already scaled so that cp*P is kelvin per step), independent per cell,
 * so neighbours differ by several kelvin and every term of the update
 * matters.  cx = 0.12, cy = 0.10, cz = 0.02: 1 - 2cx - 2cy - cz = 0.54 > 0, so
 * each step is a weighted average plus the power term (the explicit scheme
 * is stable).
 *
 * Tolerance.  The reference runs the same steps in double (exact to
 * ~1e-16).  One float step of one cell performs at most 12 roundings (two
 * neighbour sums, two differences, four products, four additions; fma
 * contraction only removes some), each of a value no larger than
 * M = Tmax*(1 + 4cx + 4cy + cz) + cz*amb + cp*Pmax, so it adds at most
 * 12u*M of new error.  Errors already present are carried by the update
 * with non-negative weights summing to 1 - cz <= 1, so they do not grow:
 * after n steps |err| <= n * 12u * M (Tmax: the largest |T| of any step).
 * That is ~2e-3 K at 8 steps, well below the ~1 K a step changes a cell.
 * Every launch first fills its output buffer with NaN, so a cell that a
 * launch fails to write is caught.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { TILE = 32, BX = 32, BY = 8, PYRAMID = 2 };

typedef struct Chip {
	int nx, ny, steps;
	float cp, cx, cy, cz, amb;
	float *power, *temp;  /* inputs, ny x nx */
	double *want;         /* reference temperatures after `steps` steps */
	double tmax, pmax;    /* largest |T| of any step, largest P */
} Chip;

static void make_inputs(Chip *c, uint64_t seed)
{
	WlRng rng;
	size_t n = (size_t)c->nx * c->ny;

	wl_rng_init(&rng, seed, 1);
	c->pmax = 0;
	for (size_t i = 0; i < n; i++) {
		c->temp[i] = wl_rng_f32(&rng, 320.0f, 350.0f);
		c->power[i] = wl_rng_f32(&rng, 0.0f, 0.5f);
		c->pmax = fmax(c->pmax, c->power[i]);
	}
}

/* the steps in double into c->want, using tmp (nx*ny) as the other buffer */
static void reference(Chip *c, double *tmp)
{
	int nx = c->nx, ny = c->ny;
	double *cur = c->want, *nxt = tmp;

	c->tmax = 0;
	for (int i = 0; i < nx * ny; i++) {
		cur[i] = c->temp[i];
		c->tmax = fmax(c->tmax, fabs(cur[i]));
	}
	for (int s = 0; s < c->steps; s++) {
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				const double *r = &cur[y * nx + x];
				double t = r[0];
				double ns = (y > 0 ? r[-nx] : t) + (y < ny - 1 ? r[nx] : t);
				double ew = (x > 0 ? r[-1] : t) + (x < nx - 1 ? r[1] : t);
				double v = t + (double)c->cp * c->power[y * nx + x] +
				           c->cy * (ns - 2 * t) + c->cx * (ew - 2 * t) +
				           c->cz * ((double)c->amb - t);
				nxt[y * nx + x] = v;
				c->tmax = fmax(c->tmax, fabs(v));
			}
		double *sw = cur;
		cur = nxt;
		nxt = sw;
	}
	if (cur != c->want)
		for (int i = 0; i < nx * ny; i++)
			c->want[i] = cur[i];
}

int wl_hotspot_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 50, 54, 5 }, { 640, 600, 8 }, { 1280, 1200, 8 } };
	Chip c = { .nx = dims[args->size][0], .ny = dims[args->size][1],
	           .steps = dims[args->size][2],
	           .cp = 1.0f, .cx = 0.12f, .cy = 0.10f, .cz = 0.02f, .amb = 300.0f };
	size_t n = (size_t)c.nx * c.ny, bytes = n * sizeof(float);
	float *out = malloc(bytes);
	double *tmp = malloc(n * sizeof(double));
	WlGpu g = { 0 };
	CUdeviceptr d_p = 0, d_t[2] = { 0, 0 };
	CUfunction f;
	int rc, launches = 0, cur = 0;
	unsigned blocks = 0;

	c.power = malloc(bytes);
	c.temp = malloc(bytes);
	c.want = malloc(n * sizeof(double));
	if (!out || !tmp || !c.power || !c.temp || !c.want) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_inputs(&c, args->seed);
	reference(&c, tmp);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "hotspot_step"));
	CHECK_CU(cuMemAlloc(&d_p, bytes));
	CHECK_CU(cuMemAlloc(&d_t[0], bytes));
	CHECK_CU(cuMemAlloc(&d_t[1], bytes));
	CHECK_CU(cuMemcpyHtoD(d_p, c.power, bytes));
	CHECK_CU(cuMemcpyHtoD(d_t[0], c.temp, bytes));
	for (int done = 0; done < c.steps; done += PYRAMID, cur ^= 1, launches++) {
		int steps = c.steps - done < PYRAMID ? c.steps - done : PYRAMID;
		unsigned inner = TILE - 2 * steps;
		unsigned gx = wl_cdiv((size_t)c.nx, inner), gy = wl_cdiv((size_t)c.ny, inner);
		void *params[] = { &d_p, &d_t[cur], &d_t[cur ^ 1], &c.nx, &c.ny, &steps,
		                   &c.cp, &c.cx, &c.cy, &c.cz, &c.amb };
		CHECK_CU(cuMemsetD32(d_t[cur ^ 1], 0x7fc00000u, n));  /* NaN */
		CHECK_CU(cuLaunchKernel(f, gx, gy, 1, BX, BY, 1, 0, NULL, params, NULL));
		blocks = gx * gy > blocks ? gx * gy : blocks;
	}
	CHECK_CU(cuMemcpyDtoH(out, d_t[cur], bytes));

	double m = c.tmax * (1 + 4.0 * c.cx + 4.0 * c.cy + c.cz) + (double)c.cz * c.amb +
	           (double)c.cp * c.pmax;
	rc = wl_check_f32("T", out, c.want, NULL, n, (size_t)c.nx,
	                  c.steps * 12 * WL_ULP_F32 * m, 0.0, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%dx%d cells, %d steps in %d launches of up to %u blocks "
		         "of %dx%d", c.nx, c.ny, c.steps, launches, blocks, BX, BY);
out:
	wl_free(&d_p);
	wl_free(&d_t[0]);
	wl_free(&d_t[1]);
	wl_close(&g);
	free(out);
	free(tmp);
	free(c.power);
	free(c.temp);
	free(c.want);
	return rc;
}
