/*
 * cfd.c -- host side of cfd (see cfd.cu): a few iterations of the Euler
 * solver on a synthetic unstructured mesh, every launch checked against a
 * CPU reference computed from the same inputs the GPU had.
 *
 * The mesh.  A 2D channel of nx x ny quadrilateral cells, extruded one
 * unit in z, whose nodes are displaced smoothly (by up to 0.15 cell) so
 * that face normals and volumes differ from cell to cell; the cells whose
 * centres lie inside a thin ellipse (a wing section, 24% of the channel
 * long and 6% high) are cut out.  Each cell's four faces (south, east,
 * north, west) name the cell across them, or WING where that cell was cut
 * out and FAR_FIELD on the channel's edge.  Normals point into the cell
 * and carry the face area; the normals of the two sides of a face are
 * exact negatives, and each cell's normals sum to zero.
 *
 * Numbering.  A mesh generator numbers cells with locality but in no
 * grid order, and CFD codes renumber meshes for locality (reverse
 * Cuthill-McKee and the like).  Here the cells are numbered 8 x 8 tile by tile,
 * tiles row by row, in a seeded random order inside each tile: a warp's
 * 32 cells are scattered over a tile and its neighbours' variables over
 * a few lines of each array, so every face costs a dependent gather (the
 * neighbour's index, then its variables) that mostly hits the caches.
 * (A fully random numbering instead makes every gather a DRAM line of its
 * own and the kernel DRAM-bound, which meshes in practice avoid.)
 *
 * The flow.  Rodinia's free stream (density 1.4, pressure 1, so the speed
 * of sound is 1, Mach 1.2), at 2 degrees angle of attack; every cell
 * starts from it with seeded perturbations (density and pressure within
 * +-5%, velocity within +-0.05 per component), so that every cell's flux
 * is non-zero from the first stage.
 *
 * Sizes (nx x ny, iterations): 48 x 32, 1 (small: 1,516 cells, 8
 * blocks); 320 x 300, 1 (default: 94,912 cells, 495 blocks); 640 x 600,
 * 2 (large: 379,648 cells, 1,978 blocks).  Blocks of 192 threads; each
 * iteration is a step-factor launch and three flux + time-step launches.
 *
 * Tolerance.  Each launch's output is checked against a double reference
 * from the GPU's own input (read back), so errors do not compound.
 * Relative error bounds of the float computation, to first order, in
 * units of u = 2^-24, counting one rounding per operation (nvcc's fused
 * multiply-adds only remove roundings):
 *  - velocity m/rho: 1; its square |v|^2: 5; k = rho*|v|^2/2: 6.  p = 0.4*(e - k)
 *    amplifies k's error by kappa = k/(e - k) (0.4 at Mach 1.2): 6*kappa
 *    + 2; c = sqrt(1.4 p / rho): 3*kappa + 3; sqrt(|v|^2): 3.5.
 *  - step factor 0.5 / (sqrt(V) * (|v| + c)): 3*kappa + 8 -- checked with
 *    (3*kappa + 10)u relative.
 *  - flux: a central term (n/2)(A_j + A_i) with A a physical flux
 *    (m v + p, (e + p) v: sums of positive values, 6*kappa + 5) is within
 *    (6*kappa + 7)u of |n/2|(|A_j| + |A_i|); a viscosity term
 *    f*(U_i - U_j) within (3*kappa + 14)u of |f||U_i - U_j| (|n|: 3.5,
 *    the sum of speeds: 3*kappa + 6, two products, the difference); the
 *    16 terms of a sum add at most 16u times the sum of their magnitudes
 *    (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 *    4.2).  Checked with (6*kappa + 32)u times that sum of magnitudes.
 *  - time step U_old + (s/(4-j))*F: three roundings, 3u times
 *    |U_old| + |(s/(4-j))*F|.
 * kappa is the largest over the cells of the launch's input state.  At
 * the default size the largest errors reach about half the bound for the
 * step factor and the time step and under an eighth of it for the flux.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { NNB = 4, NVAR = 5, RK = 3, BLOCK = 192, WING = -1, FAR_FIELD = -2 };
enum { TILE = 8 };  /* cells are numbered at random inside TILE x TILE tiles */
static const float GAMMA = 1.4f, SMOOTHING = 0.2f;
static const char *const var_names[NVAR] = { "rho", "mx", "my", "mz", "e" };

typedef struct Mesh {
	int n;                  /* cells */
	int *nbr;               /* NNB x n: neighbour cell, WING or FAR_FIELD */
	float *normal;          /* 3*NNB x n: inward normal of face j, component d at (j + d*NNB) */
	float *volume;          /* n */
} Mesh;

typedef struct FreeStream {
	float var[NVAR];        /* conserved variables */
	float fc[4][3];         /* fluxes: momentum x, y, z rows, energy row */
} FreeStream;

/* ---- inputs ---- */

static void node(int a, int b, int nx, int ny, double xy[2])
{
	xy[0] = a + 0.15 * sin(4 * M_PI * b / ny) * sin(M_PI * a / nx);
	xy[1] = b + 0.15 * sin(6 * M_PI * a / nx) * sin(M_PI * b / ny);
}

static int in_wing(int a, int b, int nx, int ny)
{
	double x = (a + 0.5 - 0.35 * nx) / (0.12 * nx), y = (b + 0.5 - 0.5 * ny) / (0.03 * ny);
	return x * x + y * y < 1;
}

/* the mesh of nx x ny cells less the wing, numbered tile by tile (TILE x
 * TILE cells, tiles row by row) and at random inside each tile; 0 or 2 (no memory) */
static int make_mesh(Mesh *m, int nx, int ny, WlRng *rng)
{
	int *id = malloc(sizeof(int) * nx * ny);     /* live cells row by row, or WING */
	int *order = malloc(sizeof(int) * nx * ny);  /* ids in numbering order */
	int *num = malloc(sizeof(int) * nx * ny);    /* id -> number */
	int rc = 0, n = 0;

	if (!id || !order || !num) {
		rc = 2;
		goto out;
	}
	for (int b = 0; b < ny; b++)
		for (int a = 0; a < nx; a++)
			id[b * nx + a] = in_wing(a, b, nx, ny) ? WING : n++;
	for (int tb = 0, k = 0; tb < ny; tb += TILE)
		for (int ta = 0; ta < nx; ta += TILE) {
			int k0 = k;
			for (int b = tb; b < ny && b < tb + TILE; b++)
				for (int a = ta; a < nx && a < ta + TILE; a++)
					if (id[b * nx + a] >= 0)
						order[k++] = id[b * nx + a];
			for (int t = k - 1; t > k0; t--) {  /* Fisher-Yates inside the tile */
				int r = k0 + (int)wl_rng_below(rng, (uint32_t)(t - k0) + 1), x = order[t];
				order[t] = order[r];
				order[r] = x;
			}
		}
	for (int k = 0; k < n; k++)
		num[order[k]] = k;
	m->n = n;
	m->nbr = malloc(sizeof(int) * NNB * n);
	m->normal = malloc(sizeof(float) * 3 * NNB * n);
	m->volume = malloc(sizeof(float) * n);
	if (!m->nbr || !m->normal || !m->volume) {
		rc = 2;
		goto out;
	}
	static const int da[NNB + 1] = { 0, 1, 1, 0, 0 }, db[NNB + 1] = { 0, 0, 1, 1, 0 };
	static const int na[NNB] = { 0, 1, 0, -1 }, nb[NNB] = { -1, 0, 1, 0 };  /* S E N W */
	for (int b = 0; b < ny; b++)
		for (int a = 0; a < nx; a++) {
			if (id[b * nx + a] < 0)
				continue;
			int i = num[id[b * nx + a]];
			double p[NNB + 1][2], vol = 0;
			for (int k = 0; k <= NNB; k++)  /* corners counterclockwise, first repeated */
				node(a + da[k], b + db[k], nx, ny, p[k]);
			for (int j = 0; j < NNB; j++) {
				int a2 = a + na[j], b2 = b + nb[j];
				int out = a2 < 0 || a2 >= nx || b2 < 0 || b2 >= ny;
				m->nbr[i + j * n] = out ? FAR_FIELD : id[b2 * nx + a2] < 0 ? WING :
				                    num[id[b2 * nx + a2]];
				/* edge p[j] -> p[j+1]: inward normal (-dy, dx, 0) times depth 1 */
				m->normal[i + (j + 0 * NNB) * n] = (float)-(p[j + 1][1] - p[j][1]);
				m->normal[i + (j + 1 * NNB) * n] = (float)(p[j + 1][0] - p[j][0]);
				m->normal[i + (j + 2 * NNB) * n] = 0.0f;
				vol += p[j][0] * p[j + 1][1] - p[j + 1][0] * p[j][1];
			}
			m->volume[i] = (float)(vol / 2);
		}
out:
	free(id);
	free(order);
	free(num);
	return rc;
}

static void free_stream(FreeStream *f)
{
	const double angle = 2 * M_PI / 180, mach = 1.2;
	double rho = 1.4, p = 1.0, c = sqrt(GAMMA * p / rho), u[3] = { 0 };

	u[0] = mach * c * cos(angle);
	u[1] = mach * c * sin(angle);
	f->var[0] = (float)rho;
	for (int d = 0; d < 3; d++)
		f->var[1 + d] = (float)(rho * u[d]);
	f->var[4] = (float)(p / (GAMMA - 1.0f) + 0.5 * rho * (u[0] * u[0] + u[1] * u[1]));
	/* the fluxes as the kernel forms them, from the float variables */
	float r = f->var[0], m[3] = { f->var[1], f->var[2], f->var[3] }, e = f->var[4];
	float v[3] = { m[0] / r, m[1] / r, m[2] / r };
	float pf = (GAMMA - 1.0f) * (e - 0.5f * r * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
	for (int row = 0; row < 3; row++)
		for (int d = 0; d < 3; d++)
			f->fc[row][d] = m[row] * v[d] + (row == d ? pf : 0.0f);
	for (int d = 0; d < 3; d++)
		f->fc[3][d] = v[d] * (e + pf);
}

static void initial_state(float *var, int n, const FreeStream *f, WlRng *rng)
{
	double rho0 = f->var[0], p0 = 1.0;

	for (int i = 0; i < n; i++) {
		double rho = rho0 * (1 + wl_rng_f32(rng, -0.05f, 0.05f));
		double p = p0 * (1 + wl_rng_f32(rng, -0.05f, 0.05f)), u2 = 0;
		for (int d = 0; d < 3; d++) {
			double u = f->var[1 + d] / rho0 + wl_rng_f32(rng, -0.05f, 0.05f);
			var[i + (1 + d) * n] = (float)(rho * u);
			u2 += u * u;
		}
		var[i] = (float)rho;
		var[i + 4 * n] = (float)(p / (GAMMA - 1.0f) + 0.5 * rho * u2);
	}
}

/* ---- the reference, in double from float inputs ---- */

typedef struct Cell {
	double rho, m[3], e, u[3], u2, p, c;
	double fc[4][3];        /* physical fluxes: momentum rows x, y, z; energy row */
} Cell;

static void cell(const float *var, int n, int i, Cell *s)
{
	s->rho = var[i];
	s->e = var[i + 4 * n];
	s->u2 = 0;
	for (int d = 0; d < 3; d++) {
		s->m[d] = var[i + (1 + d) * n];
		s->u[d] = s->m[d] / s->rho;
		s->u2 += s->u[d] * s->u[d];
	}
	s->p = (double)(GAMMA - 1.0f) * (s->e - 0.5 * s->rho * s->u2);
	s->c = sqrt((double)GAMMA * s->p / s->rho);
	for (int row = 0; row < 3; row++)
		for (int d = 0; d < 3; d++)
			s->fc[row][d] = s->m[row] * s->u[d] + (row == d ? s->p : 0);
	for (int d = 0; d < 3; d++)
		s->fc[3][d] = s->u[d] * (s->e + s->p);
}

/* the largest k/(e - k), k the kinetic energy, over the cells (the error
 * amplification of the pressure's subtraction) */
static double kappa(const float *var, int n)
{
	double kmax = 0;

	for (int i = 0; i < n; i++) {
		Cell s;
		cell(var, n, i, &s);
		double k = 0.5 * s.rho * s.u2;
		kmax = fmax(kmax, k / (s.e - k));
	}
	return kmax;
}

static void ref_step(const float *var, const float *volume, int n, double *want)
{
	for (int i = 0; i < n; i++) {
		Cell s;
		cell(var, n, i, &s);
		want[i] = 0.5 / (sqrt((double)volume[i]) * (sqrt(s.u2) + s.c));
	}
}

/* the flux sums of every cell into want[v*n + i], magnitudes into mag */
static void ref_flux(const Mesh *m, const FreeStream *ff, const float *var, double *want,
                     double *mag)
{
	int n = m->n;

	for (int i = 0; i < n; i++) {
		Cell a, b;
		double s[NVAR] = { 0 }, g[NVAR] = { 0 };
		cell(var, n, i, &a);
		for (int j = 0; j < NNB; j++) {
			int nb = m->nbr[i + j * n];
			double nv[3];
			for (int d = 0; d < 3; d++)
				nv[d] = m->normal[i + (j + d * NNB) * n];
			if (nb == WING) {
				for (int d = 0; d < 3; d++) {
					s[1 + d] += nv[d] * a.p;
					g[1 + d] += fabs(nv[d] * a.p);
				}
				continue;
			}
			if (nb >= 0) {
				cell(var, n, nb, &b);
				double area = sqrt(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
				double f = -area * SMOOTHING * 0.5 *
				           (sqrt(a.u2) + sqrt(b.u2) + a.c + b.c);
				double du[NVAR] = { a.rho - b.rho, a.m[0] - b.m[0], a.m[1] - b.m[1],
				                    a.m[2] - b.m[2], a.e - b.e };
				for (int v = 0; v < NVAR; v++) {
					s[v] += f * du[v];
					g[v] += fabs(f * du[v]);
				}
			} else {                 /* far field: the free stream across the face */
				b.rho = ff->var[0];
				b.e = ff->var[4];
				for (int d = 0; d < 3; d++) {
					b.m[d] = ff->var[1 + d];
					for (int row = 0; row < 4; row++)
						b.fc[row][d] = ff->fc[row][d];
				}
			}
			for (int d = 0; d < 3; d++) {
				double f = 0.5 * nv[d];
				double x[NVAR][2] = { { b.m[d], a.m[d] }, { b.fc[0][d], a.fc[0][d] },
				                      { b.fc[1][d], a.fc[1][d] }, { b.fc[2][d], a.fc[2][d] },
				                      { b.fc[3][d], a.fc[3][d] } };
				for (int v = 0; v < NVAR; v++) {
					s[v] += f * (x[v][0] + x[v][1]);
					g[v] += fabs(f) * (fabs(x[v][0]) + fabs(x[v][1]));
				}
			}
		}
		for (int v = 0; v < NVAR; v++) {
			want[i + v * n] = s[v];
			mag[i + v * n] = g[v];
		}
	}
}

/* ---- running and checking ---- */

typedef struct Run {
	Mesh mesh;
	FreeStream ff;
	int iters;
	float *var, *old, *step, *flux;  /* the GPU's arrays, read back */
	double *want, *mag;               /* NVAR x n */
} Run;

/* each variable's array of a NVAR x n result against want/mag */
static int check_vars(const char *what, int it, const float *got, const Run *r,
                      double rtol, char *msg, size_t msgn)
{
	int n = r->mesh.n, rc = 0;
	char name[64];

	for (int v = 0; v < NVAR && !rc; v++) {
		snprintf(name, sizeof name, "iteration %d %s %s", it, what, var_names[v]);
		rc = wl_check_f32(name, got + (size_t)v * n, r->want + (size_t)v * n,
		                  r->mag + (size_t)v * n, (size_t)n, 0, 0.0, rtol, msg, msgn);
	}
	return rc;
}

static void ref_update(const Run *r, int j, double *want, double *mag)
{
	int n = r->mesh.n;

	for (int i = 0; i < n; i++) {
		double f = (double)r->step[i] / (RK + 1 - j);
		for (int v = 0; v < NVAR; v++) {
			double o = r->old[i + v * n], d = f * r->flux[i + v * n];
			want[i + v * n] = o + d;
			mag[i + v * n] = fabs(o) + fabs(d);
		}
	}
}

typedef struct Dev {
	CUdeviceptr nbr, normal, volume, var, old, step, flux;  /* 0 until allocated */
	CUfunction f_step, f_flux, f_update;
	unsigned grid;
} Dev;

/* the kernels, the free stream into constant memory, the mesh and state to the GPU */
static int upload(const Run *r, const WlGpu *g, Dev *d, char *msg, size_t msgn)
{
	static const char *const fc_names[4] = { "ff_fc_mx", "ff_fc_my", "ff_fc_mz", "ff_fc_e" };
	int rc = 0, n = r->mesh.n;
	size_t vbytes = sizeof(float) * NVAR * n, symbytes;
	CUdeviceptr sym;

	CHECK_CU(cuModuleGetFunction(&d->f_step, g->mod, "cfd_step_factor"));
	CHECK_CU(cuModuleGetFunction(&d->f_flux, g->mod, "cfd_flux"));
	CHECK_CU(cuModuleGetFunction(&d->f_update, g->mod, "cfd_time_step"));
	CHECK_CU(cuModuleGetGlobal(&sym, &symbytes, g->mod, "ff_var"));
	CHECK_CU(cuMemcpyHtoD(sym, r->ff.var, sizeof r->ff.var));
	for (int k = 0; k < 4; k++) {
		CHECK_CU(cuModuleGetGlobal(&sym, &symbytes, g->mod, fc_names[k]));
		CHECK_CU(cuMemcpyHtoD(sym, r->ff.fc[k], sizeof r->ff.fc[k]));
	}
	CHECK_CU(cuMemAlloc(&d->nbr, sizeof(int) * NNB * n));
	CHECK_CU(cuMemAlloc(&d->normal, sizeof(float) * 3 * NNB * n));
	CHECK_CU(cuMemAlloc(&d->volume, sizeof(float) * n));
	CHECK_CU(cuMemAlloc(&d->var, vbytes));
	CHECK_CU(cuMemAlloc(&d->old, vbytes));
	CHECK_CU(cuMemAlloc(&d->flux, vbytes));
	CHECK_CU(cuMemAlloc(&d->step, sizeof(float) * n));
	CHECK_CU(cuMemcpyHtoD(d->nbr, r->mesh.nbr, sizeof(int) * NNB * n));
	CHECK_CU(cuMemcpyHtoD(d->normal, r->mesh.normal, sizeof(float) * 3 * NNB * n));
	CHECK_CU(cuMemcpyHtoD(d->volume, r->mesh.volume, sizeof(float) * n));
	CHECK_CU(cuMemcpyHtoD(d->var, r->var, vbytes));
	d->grid = wl_cdiv((size_t)n, BLOCK);
out:
	return rc;
}

/* iteration `it`: step factors, then RK stages of flux and time step, each checked */
static int iteration(Run *r, Dev *d, int it, char *msg, size_t msgn)
{
	int rc = 0, n = r->mesh.n;
	size_t vbytes = sizeof(float) * NVAR * n;
	void *ps[] = { &d->var, &d->volume, &d->step, &n };

	CHECK_CU(cuMemcpyDtoD(d->old, d->var, vbytes));
	memcpy(r->old, r->var, vbytes);
	double kap = kappa(r->old, n);
	CHECK_CU(cuLaunchKernel(d->f_step, d->grid, 1, 1, BLOCK, 1, 1, 0, NULL, ps, NULL));
	CHECK_CU(cuMemcpyDtoH(r->step, d->step, sizeof(float) * n));
	ref_step(r->old, r->mesh.volume, n, r->want);
	if ((rc = wl_check_f32("step", r->step, r->want, NULL, (size_t)n, 0, 0.0,
	                       (3 * kap + 10) * WL_ULP_F32, msg, msgn)))
		return rc;
	for (int j = 0; j < RK; j++) {
		void *pf[] = { &d->nbr, &d->normal, &d->var, &d->flux, &n };
		void *pu[] = { &j, &n, &d->old, &d->var, &d->step, &d->flux };
		if (j > 0)
			kap = kappa(r->var, n);
		CHECK_CU(cuLaunchKernel(d->f_flux, d->grid, 1, 1, BLOCK, 1, 1, 0, NULL, pf, NULL));
		CHECK_CU(cuMemcpyDtoH(r->flux, d->flux, vbytes));
		ref_flux(&r->mesh, &r->ff, r->var, r->want, r->mag);
		if ((rc = check_vars("flux", it, r->flux, r, (6 * kap + 32) * WL_ULP_F32,
		                     msg, msgn)))
			return rc;
		CHECK_CU(cuLaunchKernel(d->f_update, d->grid, 1, 1, BLOCK, 1, 1, 0, NULL, pu, NULL));
		CHECK_CU(cuMemcpyDtoH(r->var, d->var, vbytes));
		ref_update(r, j, r->want, r->mag);
		if ((rc = check_vars("update", it, r->var, r, 3 * WL_ULP_F32, msg, msgn)))
			return rc;
	}
out:
	return rc;
}

int wl_cfd_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 48, 32, 1 }, { 320, 300, 1 }, { 640, 600, 2 } };
	Run r = { .iters = dims[args->size][2] };
	WlGpu g = { 0 };
	Dev d = { 0 };
	WlRng rng;
	int rc, n;

	wl_rng_init(&rng, args->seed, 1);
	if ((rc = make_mesh(&r.mesh, dims[args->size][0], dims[args->size][1], &rng))) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	n = r.mesh.n;
	r.var = malloc(sizeof(float) * NVAR * n);
	r.old = malloc(sizeof(float) * NVAR * n);
	r.flux = malloc(sizeof(float) * NVAR * n);
	r.step = malloc(sizeof(float) * n);
	r.want = malloc(sizeof(double) * NVAR * n);
	r.mag = malloc(sizeof(double) * NVAR * n);
	if (!r.var || !r.old || !r.flux || !r.step || !r.want || !r.mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	free_stream(&r.ff);
	initial_state(r.var, n, &r.ff, &rng);
	if ((rc = wl_open(&g, args->ptx, msg, msgn)) || (rc = upload(&r, &g, &d, msg, msgn)))
		goto out;
	for (int it = 0; it < r.iters && !rc; it++)
		rc = iteration(&r, &d, it, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "%d cells, %d iterations of %d Runge-Kutta stages, "
		         "%u blocks of %d", n, r.iters, RK, d.grid, BLOCK);
out:
	wl_free(&d.nbr);
	wl_free(&d.normal);
	wl_free(&d.volume);
	wl_free(&d.var);
	wl_free(&d.old);
	wl_free(&d.flux);
	wl_free(&d.step);
	wl_close(&g);
	free(r.mesh.nbr);
	free(r.mesh.normal);
	free(r.mesh.volume);
	free(r.var);
	free(r.old);
	free(r.flux);
	free(r.step);
	free(r.want);
	free(r.mag);
	return rc;
}
