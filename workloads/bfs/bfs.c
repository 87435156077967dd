/*
 * bfs.c -- host side of bfs (see bfs.cu): distances from vertex 0 in a
 * random directed graph, by the frontier-mask kernels and then by the
 * queue kernel, both checked exactly against a CPU breadth-first search.
 *
 * The graph: out-degree 1-8 for most vertices and 32-127 for one in 64
 * (hubs), so the threads of a warp walk very different numbers of edges;
 * half of the edges go to a vertex within +-64 (locality, and a longer
 * search), half anywhere.  Duplicate edges and self-loops are kept, as
 * generators produce them.  Some vertices have no in-edges and stay at
 * level -1.
 *
 * Sizes: 4,096 (small), 65,536 (default), 262,144 (large) vertices.
 * Blocks of 256 threads; the mask kernels run one thread per vertex
 * (16, 256 and 1,024 blocks per launch, two launches per level), the
 * queue kernel one thread per frontier vertex (one launch per level,
 * ceil(frontier/256) blocks).
 *
 * Levels are integers and BFS distances are unique, so the check is exact
 * whatever order the GPU discovered vertices in.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 256, SRC = 0 };

typedef struct Graph {
	int n, m;         /* vertices, edges */
	int *rowptr;      /* n + 1 offsets into colidx */
	int *colidx;      /* m edge targets */
	int *want;        /* CPU BFS levels, -1 = unreachable */
	int nlevels;      /* 1 + largest level */
} Graph;

typedef struct Dev {
	CUdeviceptr rowptr, colidx, level0, level;  /* level0: -1 but SRC at 0 */
	CUdeviceptr a, b, c;  /* mask: frontier, next, active flag; queue: in, out */
} Dev;

static int make_graph(Graph *gr, uint64_t seed)
{
	WlRng rng;
	int cap = gr->n * 6;

	wl_rng_init(&rng, seed, 1);
	gr->rowptr = malloc((size_t)(gr->n + 1) * sizeof(int));
	gr->colidx = malloc((size_t)cap * sizeof(int));
	if (!gr->rowptr || !gr->colidx)
		return -1;
	gr->m = 0;
	for (int v = 0; v < gr->n; v++) {
		int hub = wl_rng_below(&rng, 64) == 0;
		int deg = hub ? 32 + (int)wl_rng_below(&rng, 96) : 1 + (int)wl_rng_below(&rng, 8);
		gr->rowptr[v] = gr->m;
		if (gr->m + deg > cap) {
			int *p = realloc(gr->colidx, (size_t)(cap *= 2) * sizeof(int));
			if (!p)
				return -1;
			gr->colidx = p;
		}
		for (int d = 0; d < deg; d++) {
			int local = (int)wl_rng_below(&rng, 2);
			int u = local ? v + (int)wl_rng_below(&rng, 129) - 64
			              : (int)wl_rng_below(&rng, (uint32_t)gr->n);
			gr->colidx[gr->m++] = (u + gr->n) % gr->n;
		}
	}
	gr->rowptr[gr->n] = gr->m;
	return 0;
}

/* CPU breadth-first search from SRC into gr->want */
static int cpu_bfs(Graph *gr)
{
	int *queue = malloc((size_t)gr->n * sizeof(int)), head = 0, tail = 0;

	gr->want = malloc((size_t)gr->n * sizeof(int));
	if (!queue || !gr->want) {
		free(queue);
		return -1;
	}
	for (int v = 0; v < gr->n; v++)
		gr->want[v] = -1;
	gr->want[SRC] = 0;
	queue[tail++] = SRC;
	while (head < tail) {
		int v = queue[head++];
		for (int e = gr->rowptr[v]; e < gr->rowptr[v + 1]; e++) {
			int u = gr->colidx[e];
			if (gr->want[u] < 0) {
				gr->want[u] = gr->want[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	gr->nlevels = gr->want[queue[tail - 1]] + 1;
	free(queue);
	return 0;
}

/* frontier masks: two launches per level until no vertex is discovered */
static int run_mask(const WlGpu *g, const Graph *gr, Dev *d, int *got,
                    char *msg, size_t msgn)
{
	CUfunction expand, update;
	int n = gr->n, depth = 0, active = 1, rc = 0;
	unsigned grid = wl_cdiv((size_t)n, BLOCK);
	unsigned char one = 1;

	CHECK_CU(cuModuleGetFunction(&expand, g->mod, "bfs_mask_expand"));
	CHECK_CU(cuModuleGetFunction(&update, g->mod, "bfs_mask_update"));
	CHECK_CU(cuMemcpyDtoD(d->level, d->level0, (size_t)n * sizeof(int)));
	CHECK_CU(cuMemsetD8(d->a, 0, (size_t)n));
	CHECK_CU(cuMemsetD8(d->b, 0, (size_t)n));
	CHECK_CU(cuMemcpyHtoD(d->a + SRC, &one, 1));
	void *pe[] = { &n, &depth, &d->rowptr, &d->colidx, &d->a, &d->b, &d->level };
	void *pu[] = { &n, &d->a, &d->b, &d->c };
	for (; active; depth++) {
		if (depth > n) {
			snprintf(msg, msgn, "bfs_mask: still discovering after %d levels", depth);
			return 1;
		}
		CHECK_CU(cuLaunchKernel(expand, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pe, NULL));
		CHECK_CU(cuMemsetD32(d->c, 0, 1));
		CHECK_CU(cuLaunchKernel(update, grid, 1, 1, BLOCK, 1, 1, 0, NULL, pu, NULL));
		CHECK_CU(cuMemcpyDtoH(&active, d->c, sizeof active));
	}
	CHECK_CU(cuMemcpyDtoH(got, d->level, (size_t)n * sizeof(int)));
out:
	return rc;
}

/* queue: one launch per level, queue length in the __device__ bfs_qtail */
static int run_queue(const WlGpu *g, const Graph *gr, Dev *d, int *got,
                     char *msg, size_t msgn)
{
	CUfunction expand;
	CUdeviceptr d_tail;
	size_t tail_bytes;
	int n = gr->n, depth = 0, qlen = 1, src = SRC, rc = 0;
	CUdeviceptr qin = d->a, qout = d->b;

	CHECK_CU(cuModuleGetFunction(&expand, g->mod, "bfs_queue_expand"));
	CHECK_CU(cuModuleGetGlobal(&d_tail, &tail_bytes, g->mod, "bfs_qtail"));
	if (tail_bytes != sizeof(int)) {
		snprintf(msg, msgn, "bfs_qtail is %zu bytes, expected %zu", tail_bytes,
		         sizeof(int));
		return 2;
	}
	CHECK_CU(cuMemcpyDtoD(d->level, d->level0, (size_t)n * sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(qin, &src, sizeof src));
	for (; qlen > 0; depth++) {
		if (qlen > n || depth > n) {
			snprintf(msg, msgn, "bfs_queue: level %d has %d vertices (graph has %d)",
			         depth, qlen, n);
			return 1;
		}
		void *params[] = { &qlen, &depth, &d->rowptr, &d->colidx, &qin, &qout, &d->level };
		CHECK_CU(cuMemsetD32(d_tail, 0, 1));
		CHECK_CU(cuLaunchKernel(expand, wl_cdiv((size_t)qlen, BLOCK), 1, 1, BLOCK, 1, 1, 0,
		                        NULL, params, NULL));
		CHECK_CU(cuMemcpyDtoH(&qlen, d_tail, sizeof qlen));
		CUdeviceptr t = qin;
		qin = qout;
		qout = t;
	}
	CHECK_CU(cuMemcpyDtoH(got, d->level, (size_t)n * sizeof(int)));
out:
	return rc;
}

/* upload the graph; level0 = all -1 but SRC at 0; scratch for both variants */
static int upload(const Graph *gr, Dev *d, char *msg, size_t msgn)
{
	size_t nb = (size_t)gr->n * sizeof(int);
	int zero = 0, rc = 0;

	CHECK_CU(cuMemAlloc(&d->rowptr, nb + sizeof(int)));
	CHECK_CU(cuMemAlloc(&d->colidx, (size_t)gr->m * sizeof(int)));
	CHECK_CU(cuMemAlloc(&d->level0, nb));
	CHECK_CU(cuMemAlloc(&d->level, nb));
	CHECK_CU(cuMemAlloc(&d->a, nb));  /* a mask of n bytes or a queue of n ints */
	CHECK_CU(cuMemAlloc(&d->b, nb));
	CHECK_CU(cuMemAlloc(&d->c, sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d->rowptr, gr->rowptr, nb + sizeof(int)));
	CHECK_CU(cuMemcpyHtoD(d->colidx, gr->colidx, (size_t)gr->m * sizeof(int)));
	CHECK_CU(cuMemsetD32(d->level0, 0xffffffffu, (size_t)gr->n));
	CHECK_CU(cuMemcpyHtoD(d->level0 + SRC * sizeof(int), &zero, sizeof zero));
out:
	return rc;
}

int wl_bfs_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 4096, 65536, 262144 };
	Graph gr = { .n = sizes[args->size] };
	Dev d = { 0 };
	WlGpu g = { 0 };
	int *got = malloc((size_t)gr.n * sizeof(int)), rc;

	if (!got || make_graph(&gr, args->seed) || cpu_bfs(&gr)) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	if ((rc = wl_open(&g, args->ptx, msg, msgn)) || (rc = upload(&gr, &d, msg, msgn)))
		goto out;
	if ((rc = run_mask(&g, &gr, &d, got, msg, msgn)) ||
	    (rc = wl_check_i32("level_mask", got, gr.want, (size_t)gr.n, msg, msgn)))
		goto out;
	if ((rc = run_queue(&g, &gr, &d, got, msg, msgn)) ||
	    (rc = wl_check_i32("level_queue", got, gr.want, (size_t)gr.n, msg, msgn)))
		goto out;
	int reached = 0;
	for (int v = 0; v < gr.n; v++)
		reached += gr.want[v] >= 0;
	snprintf(msg, msgn, "%d vertices, %d edges, %d levels, %d reached; mask and queue",
	         gr.n, gr.m, gr.nlevels, reached);
out:
	wl_free(&d.rowptr);
	wl_free(&d.colidx);
	wl_free(&d.level0);
	wl_free(&d.level);
	wl_free(&d.a);
	wl_free(&d.b);
	wl_free(&d.c);
	wl_close(&g);
	free(got);
	free(gr.rowptr);
	free(gr.colidx);
	free(gr.want);
	return rc;
}
