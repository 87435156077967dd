/*
 * lavamd.cu -- pairwise particle interactions with a cutoff, through a
 * grid of boxes (the neighbour-box scheme of Rodinia's lavaMD, written
 * afresh), in double precision.
 *
 * Space is cut into nbx x nby x nbz unit boxes holding NP particles each;
 * with a cutoff radius no larger than a box, every partner of a particle
 * lies in its own box or one of the (up to) 26 around it.  Each pair
 * within the cutoff contributes a Gaussian-screened potential and its
 * force:
 *
 *   w = q_j * exp(-a2 * r^2),  pot_i += w,  f_i += 2*a2 * w * (r_i - r_j)
 *
 * (a particle meets itself too, at r = 0: potential q_i, no force).
 * A block of 128 threads takes BPB = 16 consecutive home boxes along x,
 * one thread per home particle (NP = 8 per box).  It walks the 27
 * neighbour offsets in a uniform loop: each group of 8 threads loads the
 * 8 particles of its own home box's neighbour at that offset into shared
 * memory, the block synchronises, and each thread runs through its
 * group's 8 staged particles, testing the cutoff (a divergent branch:
 * about one pair in six is inside) and paying a double-precision exp for
 * the pairs that are.  Offsets that fall outside the grid are skipped by
 * the groups concerned only, so the barriers stay uniform while the work
 * differs between warps and between the four groups of a warp.  (Few
 * particles per box keep the simulated cost down; the pair loop, not the
 * box count, is what the kernel is about.)
 *
 * Coordinates, accumulators and constants are doubles, two registers
 * each, and the exp keeps several more in flight, which is what puts this
 * kernel's occupancy at the mercy of the register file.
 */

#define NP 8                  /* particles per box */
#define BPB 16                /* boxes per block, consecutive along x */
#define BLOCK (NP * BPB)      /* 128 */

extern "C" __global__ void __launch_bounds__(BLOCK)
lavamd_forces(int nbx, int nby, int nbz, double a2, double rc2,
              const double *__restrict__ px, const double *__restrict__ py,
              const double *__restrict__ pz, const double *__restrict__ q,
              double *__restrict__ pot, double *__restrict__ fx, double *__restrict__ fy,
              double *__restrict__ fz)
{
	__shared__ double sx[BLOCK], sy[BLOCK], sz[BLOCK], sq[BLOCK];
	int t = threadIdx.x, grp = t / NP, k = t % NP;
	int nblk = (nbx + BPB - 1) / BPB;
	int bx = (blockIdx.x % nblk) * BPB + grp;
	int by = blockIdx.x / nblk % nby, bz = blockIdx.x / nblk / nby;
	bool home = bx < nbx;
	int i = ((bz * nby + by) * nbx + bx) * NP + k;
	double xi = 0, yi = 0, zi = 0, vp = 0, vx = 0, vy = 0, vz = 0;

	if (home) {
		xi = px[i];
		yi = py[i];
		zi = pz[i];
	}
	for (int o = 0; o < 27; o++) {
		int nx = bx + o % 3 - 1, ny = by + o / 3 % 3 - 1, nz = bz + o / 9 - 1;
		bool ok = home && nx >= 0 && nx < nbx && ny >= 0 && ny < nby && nz >= 0 && nz < nbz;
		if (ok) {
			int j = ((nz * nby + ny) * nbx + nx) * NP + k;
			sx[t] = px[j];
			sy[t] = py[j];
			sz[t] = pz[j];
			sq[t] = q[j];
		}
		__syncthreads();
		if (ok) {
			for (int jj = grp * NP; jj < grp * NP + NP; jj++) {
				double dx = xi - sx[jj], dy = yi - sy[jj], dz = zi - sz[jj];
				double r2 = dx * dx + dy * dy + dz * dz;
				if (r2 < rc2) {
					double w = sq[jj] * exp(-a2 * r2);
					double s = 2.0 * a2 * w;
					vp += w;
					vx += s * dx;
					vy += s * dy;
					vz += s * dz;
				}
			}
		}
		__syncthreads();
	}
	if (home) {
		pot[i] = vp;
		fx[i] = vx;
		fy[i] = vy;
		fz[i] = vz;
	}
}
