/*
 * stencil3d.c -- host side of stencil3d (see stencil3d.cu): `sweeps`
 * sweeps of the 27-point stencil, one launch each, ping-ponging two
 * grids on the device.
 *
 * Sizes (nx x ny x nz, z chunk, sweeps): 70x20x20, 8, 2 (small);
 * 250x180x24, 6, 2 (default); 500x360x24, 6, 2 (large).  Blocks of 32x4
 * threads on 32x8 tiles: grids of 3x3x3 = 27, 8x23x4 = 736 and
 * 16x45x4 = 2,880 blocks per launch.  nx and ny are not multiples of the
 * tile, and the small nz is not one of the chunk, so every guard runs.
 *
 * Inputs uniform in [0, 1]; weights c0 = 0.4 (centre), c1 = 0.05 (faces),
 * c2 = 0.015 (edges), c3 = 0.01 (corners), all positive and summing to
 * S = 0.4 + 6*0.05 + 12*0.015 + 8*0.01 = 0.96.
 *
 * Tolerance.  The reference sweeps in double (exact to ~1e-16).  On the
 * GPU each of the 27 products of an interior point passes through at most
 * 8 roundings: 2 in the 4-cell sums F and K, 2 in the class sums (e.g.
 * F(z) + (C(z-1) + C(z+1))), 1 in the multiplication by the weight and 3
 * in adding the four classes (fma contraction only merges some of them).
 * So one sweep adds at most 8u * sum_i |c_i v_i| <= 8u * S * Vmax of new
 * error (Higham, section 4.2), Vmax being the largest |value| of any
 * sweep, while errors already present are weighted by S <= 1 and do not
 * grow; boundary copies are exact.  After n sweeps |err| <= n * 8u * S *
 * Vmax, about 1e-6 here: a wrong weight, neighbour or plane is off by
 * ~1e-2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BX = 32, BY = 4, TY = 8 };

typedef struct Grid {
	int nx, ny, nz, zchunk, sweeps;
	float c[4];        /* centre, face, edge, corner weights */
	float *in;         /* input grid */
	double *want;      /* reference after `sweeps` sweeps */
	double vmax;       /* largest |value| of any sweep */
} Grid;

/* one reference sweep of src into dst */
static void sweep(const Grid *g, const double *src, double *dst)
{
	int nx = g->nx, ny = g->ny, nz = g->nz;

	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				size_t i = ((size_t)z * ny + y) * nx + x;
				if (!x || !y || !z || x == nx - 1 || y == ny - 1 || z == nz - 1) {
					dst[i] = src[i];
					continue;
				}
				double s = 0;
				for (int dz = -1; dz <= 1; dz++)
					for (int dy = -1; dy <= 1; dy++)
						for (int dx = -1; dx <= 1; dx++) {
							int cls = abs(dx) + abs(dy) + abs(dz);
							s += g->c[cls] *
							     src[i + ((ptrdiff_t)dz * ny + dy) * nx + dx];
						}
				dst[i] = s;
			}
}

static void reference(Grid *g, double *tmp)
{
	size_t n = (size_t)g->nx * g->ny * g->nz;
	double *cur = g->want, *nxt = tmp;

	g->vmax = 0;
	for (size_t i = 0; i < n; i++) {
		cur[i] = g->in[i];
		g->vmax = fmax(g->vmax, fabs(cur[i]));
	}
	for (int s = 0; s < g->sweeps; s++) {
		sweep(g, cur, nxt);
		for (size_t i = 0; i < n; i++)
			g->vmax = fmax(g->vmax, fabs(nxt[i]));
		double *sw = cur;
		cur = nxt;
		nxt = sw;
	}
	if (cur != g->want)
		for (size_t i = 0; i < n; i++)
			g->want[i] = cur[i];
}

int wl_stencil3d_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][5] = { { 70, 20, 20, 8, 2 }, { 250, 180, 24, 6, 2 },
	                               { 500, 360, 24, 6, 2 } };
	const int *d = dims[args->size];
	Grid gr = { .nx = d[0], .ny = d[1], .nz = d[2], .zchunk = d[3], .sweeps = d[4],
	            .c = { 0.4f, 0.05f, 0.015f, 0.01f } };
	size_t n = (size_t)gr.nx * gr.ny * gr.nz, bytes = n * sizeof(float);
	float *out = malloc(bytes);
	double *tmp = malloc(n * sizeof(double));
	WlGpu g = { 0 };
	CUdeviceptr d_v[2] = { 0, 0 };
	CUfunction f;
	WlRng rng;
	int rc, cur = 0;
	unsigned gx = wl_cdiv((size_t)gr.nx, BX), gy = wl_cdiv((size_t)gr.ny, TY);
	unsigned gz = wl_cdiv((size_t)gr.nz, (size_t)gr.zchunk);

	gr.in = malloc(bytes);
	gr.want = malloc(n * sizeof(double));
	if (!out || !tmp || !gr.in || !gr.want) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	for (size_t i = 0; i < n; i++)
		gr.in[i] = wl_rng_f32(&rng, 0.0f, 1.0f);
	reference(&gr, tmp);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "stencil27"));
	CHECK_CU(cuMemAlloc(&d_v[0], bytes));
	CHECK_CU(cuMemAlloc(&d_v[1], bytes));
	CHECK_CU(cuMemcpyHtoD(d_v[0], gr.in, bytes));
	for (int s = 0; s < gr.sweeps; s++, cur ^= 1) {
		void *params[] = { &d_v[cur], &d_v[cur ^ 1], &gr.nx, &gr.ny, &gr.nz, &gr.zchunk,
		                   &gr.c[0], &gr.c[1], &gr.c[2], &gr.c[3] };
		CHECK_CU(cuMemsetD32(d_v[cur ^ 1], 0x7fc00000u, n));  /* NaN: catch unwritten points */
		CHECK_CU(cuLaunchKernel(f, gx, gy, gz, BX, BY, 1, 0, NULL, params, NULL));
	}
	CHECK_CU(cuMemcpyDtoH(out, d_v[cur], bytes));

	double csum = gr.c[0] + 6.0 * gr.c[1] + 12.0 * gr.c[2] + 8.0 * gr.c[3];
	rc = wl_check_f32("v", out, gr.want, NULL, n, (size_t)gr.nx,
	                  gr.sweeps * 8 * WL_ULP_F32 * csum * gr.vmax, 0.0, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%dx%dx%d points, %d sweeps of %ux%ux%u blocks of %dx%d",
		         gr.nx, gr.ny, gr.nz, gr.sweeps, gx, gy, gz, BX, BY);
out:
	wl_free(&d_v[0]);
	wl_free(&d_v[1]);
	wl_close(&g);
	free(out);
	free(tmp);
	free(gr.in);
	free(gr.want);
	return rc;
}
