/*
 * cfd.cu -- an explicit finite-volume solver for the 3D Euler equations of
 * compressible inviscid flow on an unstructured grid (the solver of
 * Rodinia's CFD, euler3d, written afresh from the method: Corrigan et al.,
 * "Running unstructured grid-based CFD solvers on modern graphics
 * hardware", AIAA 2009).
 *
 * Each cell holds five conserved variables, density rho, momentum m (3)
 * and total energy per volume e, stored structure-of-arrays with stride n
 * (variable v of cell i at vars[i + v*n]) so that a warp's own-cell loads
 * coalesce.  From them: velocity u = m / rho, pressure
 * p = (gamma - 1) * (e - rho*|u|^2 / 2) and speed of sound
 * c = sqrt(gamma * p / rho).  The physical flux of a cell, F(U) . n for a
 * face normal n, has the momentum rows m u^T + p I and the energy row
 * (e + p) u; flux_contribution() forms those 12 numbers once per cell.
 *
 * Every cell has NNB = 4 faces.  For each face the mesh gives the index
 * of the cell across it (or WING = -1 for a solid wall, FAR_FIELD = -2 for
 * the outer boundary) and the face normal, scaled by the face area and
 * pointing INTO the cell (Rodinia negates its mesh file's normals on
 * reading; with inward normals the flux sum is directly dU/dt times the
 * volume).  The numerical flux across an interior face is central, the
 * average of the two cells' physical fluxes, plus scalar artificial
 * viscosity: smoothing * |n| * (|u_i| + |u_j| + c_i + c_j) / 2 times the
 * jump in each variable (Jameson-style, first order).  A wall face
 * contributes only the pressure force p * n; a far-field face averages
 * with the free-stream state, whose variables and fluxes the host puts in
 * constant memory.
 *
 * Kernels, one thread per cell, BLOCK = 192 threads as in Rodinia:
 *  - cfd_step_factor: the local time step, 0.5 / (sqrt(volume) *
 *    (|u| + c)), once per iteration;
 *  - cfd_flux: the flux sum of each cell: its own 5 variables and 12
 *    fluxes stay in registers while it gathers, for each face, the
 *    neighbour's index, then the neighbour's 5 variables through it.  The
 *    mesh ordering is unstructured (the host numbers cells at random), so
 *    the gathers hit scattered lines: the kernel waits on memory, and has
 *    the register pressure of ~20 cell values plus the running sums;
 *  - cfd_time_step: stage j = 0, 1, 2 of the 3-stage Runge-Kutta scheme,
 *    U = U_old + step / (RK + 1 - j) * flux, i.e. step/4, step/3, step/2
 *    times the flux of the previous stage's U.
 * The host iterates: copy U to U_old, step factors, then three stages of
 * flux + time step.
 */

#define NNB 4                  /* faces per cell */
#define NVAR 5                 /* conserved variables per cell */
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1         /* x, y, z at 1, 2, 3 */
#define VAR_ENERGY 4
#define RK 3                   /* Runge-Kutta stages per iteration */
#define GAMMA 1.4f
#define SMOOTHING 0.2f         /* artificial viscosity coefficient */
#define WING (-1)              /* neighbour id of a solid-wall face */
#define FAR_FIELD (-2)         /* neighbour id of a far-field face */
#define BLOCK 192

/* the free stream: variables, and the fluxes of flux_contribution() */
__constant__ float ff_var[NVAR];
__constant__ float3 ff_fc_mx, ff_fc_my, ff_fc_mz, ff_fc_e;

struct CellFlux {
	float3 mx, my, mz;         /* momentum rows: m u^T + p I */
	float3 e;                  /* energy row: (e + p) u */
};

__device__ inline float3 velocity(float rho, float3 m)
{
	return make_float3(m.x / rho, m.y / rho, m.z / rho);
}

__device__ inline float speed_sqd(float3 u)
{
	return u.x * u.x + u.y * u.y + u.z * u.z;
}

__device__ inline float pressure(float rho, float e, float u2)
{
	return (GAMMA - 1.0f) * (e - 0.5f * rho * u2);
}

__device__ inline float sound(float rho, float p)
{
	return sqrtf(GAMMA * p / rho);
}

__device__ inline CellFlux flux_contribution(float3 m, float e, float p, float3 u)
{
	CellFlux f;
	f.mx = make_float3(m.x * u.x + p, m.x * u.y, m.x * u.z);
	f.my = make_float3(f.mx.y, m.y * u.y + p, m.y * u.z);
	f.mz = make_float3(f.mx.z, f.my.z, m.z * u.z + p);
	float ep = e + p;
	f.e = make_float3(u.x * ep, u.y * ep, u.z * ep);
	return f;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
cfd_step_factor(const float *__restrict__ vars, const float *__restrict__ volumes,
                float *__restrict__ step, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float rho = vars[i + VAR_DENSITY * n];
	float3 m = make_float3(vars[i + (VAR_MOMENTUM + 0) * n], vars[i + (VAR_MOMENTUM + 1) * n],
	                       vars[i + (VAR_MOMENTUM + 2) * n]);
	float e = vars[i + VAR_ENERGY * n];
	float u2 = speed_sqd(velocity(rho, m));
	float c = sound(rho, pressure(rho, e, u2));
	step[i] = 0.5f / (sqrtf(volumes[i]) * (sqrtf(u2) + c));
}

extern "C" __global__ void __launch_bounds__(BLOCK)
cfd_flux(const int *__restrict__ nbr, const float *__restrict__ normals,
         const float *__restrict__ vars, float *__restrict__ fluxes, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float rho_i = vars[i + VAR_DENSITY * n];
	float3 m_i = make_float3(vars[i + (VAR_MOMENTUM + 0) * n],
	                         vars[i + (VAR_MOMENTUM + 1) * n],
	                         vars[i + (VAR_MOMENTUM + 2) * n]);
	float e_i = vars[i + VAR_ENERGY * n];
	float3 u_i = velocity(rho_i, m_i);
	float u2_i = speed_sqd(u_i);
	float p_i = pressure(rho_i, e_i, u2_i);
	float c_i = sound(rho_i, p_i);
	float speed_i = sqrtf(u2_i);
	CellFlux f_i = flux_contribution(m_i, e_i, p_i, u_i);

	float sum_rho = 0.0f, sum_e = 0.0f;
	float3 sum_m = make_float3(0.0f, 0.0f, 0.0f);
	for (int j = 0; j < NNB; j++) {
		int nb = nbr[i + j * n];
		float3 nv = make_float3(normals[i + (j + 0 * NNB) * n],
		                        normals[i + (j + 1 * NNB) * n],
		                        normals[i + (j + 2 * NNB) * n]);
		float area = sqrtf(nv.x * nv.x + nv.y * nv.y + nv.z * nv.z);
		if (nb >= 0) {
			float rho_j = vars[nb + VAR_DENSITY * n];
			float3 m_j = make_float3(vars[nb + (VAR_MOMENTUM + 0) * n],
			                         vars[nb + (VAR_MOMENTUM + 1) * n],
			                         vars[nb + (VAR_MOMENTUM + 2) * n]);
			float e_j = vars[nb + VAR_ENERGY * n];
			float3 u_j = velocity(rho_j, m_j);
			float u2_j = speed_sqd(u_j);
			float p_j = pressure(rho_j, e_j, u2_j);
			float c_j = sound(rho_j, p_j);
			CellFlux f_j = flux_contribution(m_j, e_j, p_j, u_j);

			/* artificial viscosity */
			float factor = -area * SMOOTHING * 0.5f * (speed_i + sqrtf(u2_j) + c_i + c_j);
			sum_rho += factor * (rho_i - rho_j);
			sum_e += factor * (e_i - e_j);
			sum_m.x += factor * (m_i.x - m_j.x);
			sum_m.y += factor * (m_i.y - m_j.y);
			sum_m.z += factor * (m_i.z - m_j.z);

			/* central flux, one normal component at a time */
			factor = 0.5f * nv.x;
			sum_rho += factor * (m_j.x + m_i.x);
			sum_e += factor * (f_j.e.x + f_i.e.x);
			sum_m.x += factor * (f_j.mx.x + f_i.mx.x);
			sum_m.y += factor * (f_j.my.x + f_i.my.x);
			sum_m.z += factor * (f_j.mz.x + f_i.mz.x);
			factor = 0.5f * nv.y;
			sum_rho += factor * (m_j.y + m_i.y);
			sum_e += factor * (f_j.e.y + f_i.e.y);
			sum_m.x += factor * (f_j.mx.y + f_i.mx.y);
			sum_m.y += factor * (f_j.my.y + f_i.my.y);
			sum_m.z += factor * (f_j.mz.y + f_i.mz.y);
			factor = 0.5f * nv.z;
			sum_rho += factor * (m_j.z + m_i.z);
			sum_e += factor * (f_j.e.z + f_i.e.z);
			sum_m.x += factor * (f_j.mx.z + f_i.mx.z);
			sum_m.y += factor * (f_j.my.z + f_i.my.z);
			sum_m.z += factor * (f_j.mz.z + f_i.mz.z);
		} else if (nb == WING) {
			sum_m.x += nv.x * p_i;
			sum_m.y += nv.y * p_i;
			sum_m.z += nv.z * p_i;
		} else if (nb == FAR_FIELD) {
			float factor = 0.5f * nv.x;
			sum_rho += factor * (ff_var[VAR_MOMENTUM + 0] + m_i.x);
			sum_e += factor * (ff_fc_e.x + f_i.e.x);
			sum_m.x += factor * (ff_fc_mx.x + f_i.mx.x);
			sum_m.y += factor * (ff_fc_my.x + f_i.my.x);
			sum_m.z += factor * (ff_fc_mz.x + f_i.mz.x);
			factor = 0.5f * nv.y;
			sum_rho += factor * (ff_var[VAR_MOMENTUM + 1] + m_i.y);
			sum_e += factor * (ff_fc_e.y + f_i.e.y);
			sum_m.x += factor * (ff_fc_mx.y + f_i.mx.y);
			sum_m.y += factor * (ff_fc_my.y + f_i.my.y);
			sum_m.z += factor * (ff_fc_mz.y + f_i.mz.y);
			factor = 0.5f * nv.z;
			sum_rho += factor * (ff_var[VAR_MOMENTUM + 2] + m_i.z);
			sum_e += factor * (ff_fc_e.z + f_i.e.z);
			sum_m.x += factor * (ff_fc_mx.z + f_i.mx.z);
			sum_m.y += factor * (ff_fc_my.z + f_i.my.z);
			sum_m.z += factor * (ff_fc_mz.z + f_i.mz.z);
		}
	}
	fluxes[i + VAR_DENSITY * n] = sum_rho;
	fluxes[i + (VAR_MOMENTUM + 0) * n] = sum_m.x;
	fluxes[i + (VAR_MOMENTUM + 1) * n] = sum_m.y;
	fluxes[i + (VAR_MOMENTUM + 2) * n] = sum_m.z;
	fluxes[i + VAR_ENERGY * n] = sum_e;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
cfd_time_step(int j, int n, const float *__restrict__ old, float *__restrict__ vars,
              const float *__restrict__ step, const float *__restrict__ fluxes)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float factor = step[i] / (float)(RK + 1 - j);
	for (int v = 0; v < NVAR; v++)
		vars[i + v * n] = old[i + v * n] + factor * fluxes[i + v * n];
}
