/*
 * hotspot.cu -- transient chip temperature by an explicit 2D stencil,
 * several time steps per launch in shared memory (the "pyramid" scheme of
 * Rodinia's HotSpot, written afresh).
 *
 * The chip is an ny x nx grid of cells with a temperature T and a power
 * dissipation P.  One time step updates every cell from its four
 * neighbours, the power and the ambient (heat sink) temperature:
 *
 *   T' = T + cp*P + cy*(Tn + Ts - 2T) + cx*(Te + Tw - 2T) + cz*(amb - T)
 *
 * where the coefficients fold the step length, the capacitance and the
 * thermal resistances together (the host computes them).  At the chip's
 * edge a missing neighbour is replaced by the cell itself (no flow across
 * the edge).
 *
 * A block owns a 32 x 32 tile of cells held in shared memory, and runs
 * `steps` time steps on it without going back to global memory.  After
 * step s only cells at least s away from the tile's border are right (the
 * others needed neighbours outside the tile), so tiles overlap by `steps`
 * cells on each side and a block writes only its inner
 * (32 - 2*steps)^2 cells: fewer launches and global round trips, paid for
 * with redundant work at the tile borders.  The host iterates launches,
 * swapping the temperature buffers, until all steps are done.
 *
 * Blocks are 32 x 8 threads; each thread owns four cells of one column,
 * rows ty, ty+8, ty+16 and ty+24, so every warp reads and writes one
 * whole tile row (coalesced global accesses, no shared bank conflicts).
 * A thread keeps its cells' temperatures, powers and neighbour offsets in
 * registers for the whole launch; that register blocking, and the
 * coefficients, make this the register-limited stencil of the suite.
 * Each step has two barriers: one before a cell's new value may
 * overwrite the tile (everyone has read the old values), one after (the
 * new values are all there), so the step loop has bar.sync inside it.
 */

#define TILE 32                    /* tile edge, cells */
#define ROWS 8                     /* blockDim.y */
#define CELLS (TILE / ROWS)        /* cells per thread: 4 */

extern "C" __global__ void __launch_bounds__(TILE * ROWS)
hotspot_step(const float *__restrict__ power, const float *__restrict__ tin,
             float *__restrict__ tout, int nx, int ny, int steps,
             float cp, float cx, float cy, float cz, float amb)
{
	__shared__ float tt[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int inner = TILE - 2 * steps;      /* output cells per tile edge */
	int x0 = blockIdx.x * inner - steps, y0 = blockIdx.y * inner - steps;
	int gx = x0 + tx;
	int gxc = min(max(gx, 0), nx - 1);  /* clamped: cells off the chip load junk */
	int west = gx > 0 ? -1 : 0, east = gx < nx - 1 ? 1 : 0;
	float t[CELLS], p[CELLS];
	int north[CELLS], south[CELLS];     /* row offsets of the neighbours, 0 at the edge */

#pragma unroll
	for (int c = 0; c < CELLS; c++) {
		int ly = ty + c * ROWS, gy = y0 + ly;
		int gyc = min(max(gy, 0), ny - 1);
		t[c] = tin[gyc * nx + gxc];
		p[c] = power[gyc * nx + gxc];
		north[c] = gy > 0 ? -1 : 0;
		south[c] = gy < ny - 1 ? 1 : 0;
		tt[ly][tx] = t[c];
	}
	__syncthreads();

	for (int s = 1; s <= steps; s++) {
		float nt[CELLS];
		bool xok = tx >= s && tx < TILE - s;
#pragma unroll
		for (int c = 0; c < CELLS; c++) {
			int ly = ty + c * ROWS;
			nt[c] = t[c];
			if (xok && ly >= s && ly < TILE - s) {
				float tc = t[c];
				float ns = tt[ly + north[c]][tx] + tt[ly + south[c]][tx];
				float ew = tt[ly][tx + west] + tt[ly][tx + east];
				nt[c] = tc + cp * p[c] + cy * (ns - 2.0f * tc) + cx * (ew - 2.0f * tc) +
				        cz * (amb - tc);
			}
		}
		__syncthreads();           /* all old values read */
#pragma unroll
		for (int c = 0; c < CELLS; c++) {
			t[c] = nt[c];
			tt[ty + c * ROWS][tx] = nt[c];
		}
		__syncthreads();           /* all new values written */
	}

	if (tx < steps || tx >= TILE - steps || gx >= nx)
		return;
#pragma unroll
	for (int c = 0; c < CELLS; c++) {
		int ly = ty + c * ROWS, gy = y0 + ly;
		if (ly >= steps && ly < TILE - steps && gy < ny)
			tout[gy * nx + gx] = t[c];
	}
}
