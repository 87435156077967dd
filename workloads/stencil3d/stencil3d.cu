/*
 * stencil3d.cu -- one sweep of a 27-point stencil over a 3D grid
 * (the Parboil "stencil" benchmark's shape, written afresh), marching
 * along z with the z-neighbourhood held in registers.
 *
 * Interior points get a weighted sum of their 3x3x3 neighbourhood, one
 * weight per distance class: c0 for the centre, c1 for the 6 face
 * neighbours, c2 for the 12 edge neighbours, c3 for the 8 corners.
 * Boundary points (any coordinate 0 or n-1) are copied unchanged
 * (Dirichlet boundary), so the host can iterate sweeps.
 *
 * Register blocking along z.  Seen from one xy plane, a point's 27
 * neighbours are three planes' worth of 3x3 patches, and each patch
 * splits into its centre C, the sum F of its 4 edge-adjacent cells and the
 * sum K of its 4 corner cells.  So
 *
 *   out(z) = c0*C(z) + c1*(F(z) + C(z-1) + C(z+1))
 *          + c2*(K(z) + F(z-1) + F(z+1)) + c3*(K(z-1) + K(z+1))
 *
 * and a thread marching up z only needs (C, F, K) of the plane below,
 * the current one and the one above: nine values per point, shifted down
 * one slot per plane, and a thread owns two points (rows ty and ty+4 of a
 * block of 32x4 threads covering a 32x8 xy tile), so 18 values are live
 * across the z loop besides the addressing.  Each plane is read once from
 * global memory into a shared tile with a one-cell halo, between two
 * barriers inside the z loop.  A block walks `zchunk` output planes, so
 * the grid is ceil(nx/32) x ceil(ny/8) x ceil(nz/zchunk); each chunk
 * rereads the two planes around it.  Outside the grid the tile loads clamp to the edge;
 * those values only ever reach boundary points, which are copied.
 */

#define BX 32              /* blockDim.x = tile width */
#define BY 4               /* blockDim.y */
#define RY 2               /* rows per thread */
#define TY (BY * RY)       /* tile height: 8 */
#define PW (BX + 2)        /* plane tile with halo: PW x PH */
#define PH (TY + 2)

extern "C" __global__ void __launch_bounds__(BX * BY)
stencil27(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz,
          int zchunk, float c0, float c1, float c2, float c3)
{
	__shared__ float pl[PH][PW];
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
	int xb = blockIdx.x * BX, yb = blockIdx.y * TY;
	int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
	int x = xb + tx;
	bool xin = x > 0 && x < nx - 1;
	float C[3][RY], F[3][RY], K[3][RY];  /* [0] plane below, [1] current, [2] above */

#pragma unroll
	for (int r = 0; r < RY; r++)
		C[1][r] = F[1][r] = K[1][r] = C[2][r] = F[2][r] = K[2][r] = 0.0f;
	for (int zz = z0 - 1; zz <= z1; zz++) {
		int zc = min(max(zz, 0), nz - 1);
		const float *plane = in + (size_t)zc * nx * ny;

		__syncthreads();   /* the previous plane is no longer read */
		for (int i = tid; i < PW * PH; i += BX * BY) {
			int gx = min(max(xb - 1 + i % PW, 0), nx - 1);
			int gy = min(max(yb - 1 + i / PW, 0), ny - 1);
			pl[i / PW][i % PW] = plane[gy * nx + gx];
		}
		__syncthreads();
#pragma unroll
		for (int r = 0; r < RY; r++) {
			int ly = 1 + ty + r * BY, lx = 1 + tx;
			C[0][r] = C[1][r];
			F[0][r] = F[1][r];
			K[0][r] = K[1][r];
			C[1][r] = C[2][r];
			F[1][r] = F[2][r];
			K[1][r] = K[2][r];
			C[2][r] = pl[ly][lx];
			F[2][r] = (pl[ly - 1][lx] + pl[ly + 1][lx]) + (pl[ly][lx - 1] + pl[ly][lx + 1]);
			K[2][r] = (pl[ly - 1][lx - 1] + pl[ly - 1][lx + 1]) +
			          (pl[ly + 1][lx - 1] + pl[ly + 1][lx + 1]);
		}
		int z = zz - 1;    /* the plane now in slot [1] */
		if (z < z0 || x >= nx)
			continue;
		bool zin = xin && z > 0 && z < nz - 1;
#pragma unroll
		for (int r = 0; r < RY; r++) {
			int y = yb + ty + r * BY;
			if (y >= ny)
				continue;
			float v = C[1][r];
			if (zin && y > 0 && y < ny - 1)
				v = c0 * C[1][r] + c1 * (F[1][r] + (C[0][r] + C[2][r])) +
				    c2 * (K[1][r] + (F[0][r] + F[2][r])) + c3 * (K[0][r] + K[2][r]);
			out[((size_t)z * ny + y) * nx + x] = v;
		}
	}
}
