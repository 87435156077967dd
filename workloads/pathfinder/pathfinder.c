/*
 * pathfinder.c -- host side of pathfinder (see pathfinder.cu): the
 * cheapest top-to-bottom path cost to every cell of the last row of a
 * grid of random weights, h rows per launch, checked exactly against a
 * row-by-row CPU dynamic programme.
 *
 * Weights are integers 0-9 (as in Rodinia); row 0 is the starting cost.
 * The host ping-pongs two cost rows, launching once per h = 10 rows (the
 * last launch takes what is left).
 *
 * Sizes (columns x rows): 1,024 x 64 (small), 100,000 x 100 (default, as
 * Rodinia's), 400,000 x 100 (large).  Blocks of 256 threads, each
 * finishing 256 - 2h = 236 columns: 5, 424 and 1,695 blocks per launch,
 * 7 or 10 launches.  Integer sums, so the check is exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 256, PYRAMID = 10 };

/* the last row of the cost DP over wall[rows][cols] into want; tmp: cols ints of scratch */
static void reference(const int *wall, int rows, int cols, int *want, int *tmp)
{
	int *buf[2];  /* row r goes to buf[r % 2], so the last one lands in want */

	buf[(rows - 1) % 2] = want;
	buf[rows % 2] = tmp;
	for (int c = 0; c < cols; c++)
		buf[0][c] = wall[c];
	for (int r = 1; r < rows; r++) {
		const int *prev = buf[(r - 1) % 2];
		int *cur = buf[r % 2];
		for (int c = 0; c < cols; c++) {
			int best = prev[c];
			if (c > 0 && prev[c - 1] < best)
				best = prev[c - 1];
			if (c < cols - 1 && prev[c + 1] < best)
				best = prev[c + 1];
			cur[c] = best + wall[(size_t)r * cols + c];
		}
	}
}

int wl_pathfinder_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int ncols[] = { 1024, 100000, 400000 }, nrows[] = { 64, 100, 100 };
	int cols = ncols[args->size], rows = nrows[args->size], rc, launches = 0;
	size_t cells = (size_t)rows * cols;
	int *wall = malloc(cells * sizeof(int));
	int *got = malloc((size_t)cols * sizeof(int)), *want = malloc((size_t)cols * sizeof(int));
	unsigned grid = wl_cdiv((size_t)cols, BLOCK - 2 * PYRAMID);
	WlGpu g = { 0 };
	CUdeviceptr d_wall = 0, d_a = 0, d_b = 0;
	CUfunction f;
	WlRng rng;

	if (!wall || !got || !want) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	for (size_t i = 0; i < cells; i++)
		wall[i] = (int)wl_rng_below(&rng, 10);
	reference(wall, rows, cols, want, got);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "pf_rows"));
	CHECK_CU(cuMemAlloc(&d_wall, cells * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d_a, (size_t)cols * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d_b, (size_t)cols * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d_wall, wall, cells * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d_a, wall, (size_t)cols * sizeof(int)));  /* row 0 */
	for (int r0 = 0; r0 < rows - 1; r0 += PYRAMID, launches++) {
		int h = rows - 1 - r0 < PYRAMID ? rows - 1 - r0 : PYRAMID;
		void *params[] = { &cols, &r0, &h, &d_wall, &d_a, &d_b };
		CHECK_CU(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 2 * BLOCK * sizeof(int), NULL,
		                        params, NULL));
		CUdeviceptr t = d_a;
		d_a = d_b;
		d_b = t;
	}
	CHECK_CU(cuMemcpyDtoH(got, d_a, (size_t)cols * sizeof(int)));
	if ((rc = wl_check_i32("cost", got, want, (size_t)cols, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "%d x %d grid, %d launches of %u blocks of %d, %d rows each",
	         cols, rows, launches, grid, BLOCK, PYRAMID);
out:
	wl_free(&d_wall);
	wl_free(&d_a);
	wl_free(&d_b);
	wl_close(&g);
	free(wall);
	free(got);
	free(want);
	return rc;
}
