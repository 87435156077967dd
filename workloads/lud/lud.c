/*
 * lud.c -- host side of lud (see lud.cu): blocked LU decomposition of a
 * diagonally dominant matrix in place, three launches per diagonal tile,
 * checked by the residual of the factorisation.
 *
 * The matrix: off-diagonal elements uniform in [-1, 1), each diagonal
 * element 1 + the sum of its row's off-diagonal magnitudes.  Strict
 * diagonal dominance (by rows) means LU without pivoting exists, meets no
 * zero pivot and has a growth factor of at most 2 (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., Theorem 9.9), so |L||U| is
 * of the order of |A| and the check below is tight.
 *
 * Sizes: n = 96 (small), 512 (default), 1,024 (large), multiples of the
 * 16 x 16 tile.  Per diagonal tile d (n/16 of them): one lud_diagonal
 * block of 16 threads, n/16 - 1 - d lud_perimeter blocks of 32 and
 * (n/16 - 1 - d)^2 lud_internal blocks of 16 x 16: 25, 961 and 3,969 of
 * those at d = 0.
 *
 * Check.  The blocked algorithm performs the same operations as unblocked
 * Gaussian elimination, with each element's inner product
 * a_ij - sum_k l_ik u_kj evaluated in a different order (16-term partial
 * dot products subtracted one tile at a time, then a substitution); in any
 * order the computed factors satisfy L*U = A + dA, |dA| <= gamma_n |L||U|
 * (Higham, Theorem 9.3; the tree heights here are below n).  wl_check_lu
 * checks the residual in double against (n + 2) * u * |L||U|, which is at
 * least gamma_n for n < 5,000.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { T = 16 };

static void make_matrix(float *a, int n, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	wl_dominant_matrix(a, n, &rng);
}

int wl_lud_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 96, 512, 1024 };
	int n = sizes[args->size], rc, launches = 0;
	size_t nn = (size_t)n * n;
	float *a = malloc(nn * sizeof(float)), *lu = malloc(nn * sizeof(float));
	WlGpu g = { 0 };
	CUdeviceptr d_a = 0;
	CUfunction fd, fp, fi;

	if (!a || !lu) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_matrix(a, n, args->seed);
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fd, g.mod, "lud_diagonal"));
	CHECK_CU(cuModuleGetFunction(&fp, g.mod, "lud_perimeter"));
	CHECK_CU(cuModuleGetFunction(&fi, g.mod, "lud_internal"));
	CHECK_CU(cuMemAlloc(&d_a, nn * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_a, a, nn * sizeof(float)));
	for (int off = 0;; off += T) {
		unsigned rest = (unsigned)((n - off) / T - 1);  /* tiles right of / below d */
		void *params[] = { &d_a, &n, &off };
		CHECK_CU(cuLaunchKernel(fd, 1, 1, 1, T, 1, 1, 0, NULL, params, NULL));
		launches++;
		if (!rest)
			break;
		CHECK_CU(cuLaunchKernel(fp, rest, 1, 1, 2 * T, 1, 1, 0, NULL, params, NULL));
		CHECK_CU(cuLaunchKernel(fi, rest, rest, 1, T, T, 1, 0, NULL, params, NULL));
		launches += 2;
	}
	CHECK_CU(cuMemcpyDtoH(lu, d_a, nn * sizeof(float)));
	if ((rc = wl_check_lu("LU", a, lu, n, n, (n + 2) * WL_ULP_F32, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "n=%d in %dx%d tiles, %d launches; %dx%d internal blocks at first",
	         n, T, T, launches, n / T - 1, n / T - 1);
out:
	wl_free(&d_a);
	wl_close(&g);
	free(a);
	free(lu);
	return rc;
}
