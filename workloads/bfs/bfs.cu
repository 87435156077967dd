/*
 * bfs.cu -- breadth-first search over a graph in CSR form, two ways.
 *
 * Both kernels advance the search by one level per launch; the host
 * launches again until a level discovers nothing.  level[v] is v's
 * distance from the source, -1 while undiscovered.
 *
 * Frontier masks (the Rodinia formulation, written afresh): one thread per
 * vertex, every vertex every level.  Threads whose vertex is not in the
 * frontier exit at once; the others walk their adjacency lists, whose
 * lengths differ wildly, so warps diverge on data.  Two threads may
 * discover the same vertex in one level; both write the same level and
 * the same flag, so the race is benign.  bfs_mask_update then turns the
 * discovered set into the next frontier and tells the host whether it is
 * non-empty.
 *
 * Queue: one thread per frontier vertex, so the work is proportional to
 * the edges actually walked.  A vertex is claimed with atomicCAS on its
 * level, and the winner appends it to the next queue through an atomicAdd
 * on bfs_qtail, a module-scope __device__ variable the host reads and
 * resets with cuModuleGetGlobal.  Queue order varies with timing; the
 * levels do not.
 */

/* frontier[v] -> walk v's edges, discover unvisited neighbours into next[] */
extern "C" __global__ void bfs_mask_expand(int n, int depth, const int *__restrict__ rowptr,
                                           const int *__restrict__ colidx,
                                           unsigned char *__restrict__ frontier,
                                           unsigned char *__restrict__ next,
                                           int *__restrict__ level)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;

	if (v >= n || !frontier[v])
		return;
	frontier[v] = 0;
	for (int e = rowptr[v], end = rowptr[v + 1]; e < end; e++) {
		int u = colidx[e];
		if (level[u] < 0) {
			level[u] = depth + 1;
			next[u] = 1;
		}
	}
}

/* next[] -> frontier[]; *active = 1 if any vertex was discovered */
extern "C" __global__ void bfs_mask_update(int n, unsigned char *__restrict__ frontier,
                                           unsigned char *__restrict__ next,
                                           int *__restrict__ active)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;

	if (v < n && next[v]) {
		next[v] = 0;
		frontier[v] = 1;
		*active = 1;
	}
}

__device__ int bfs_qtail;  /* length of the queue being built; host resets it */

/* walk the edges of qin[0..qlen), claiming and appending new vertices to qout */
extern "C" __global__ void bfs_queue_expand(int qlen, int depth, const int *__restrict__ rowptr,
                                            const int *__restrict__ colidx,
                                            const int *__restrict__ qin,
                                            int *__restrict__ qout, int *level)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= qlen)
		return;
	int v = qin[i];
	for (int e = rowptr[v], end = rowptr[v + 1]; e < end; e++) {
		int u = colidx[e];
		if (level[u] < 0 && atomicCAS(&level[u], -1, depth + 1) == -1)
			qout[atomicAdd(&bfs_qtail, 1)] = u;
	}
}
