/*
 * bfs.cu -- irregular graph codes: a level-synchronous BFS with a
 * frontier work queue (atomicAdd on a queue tail, atomicCAS to claim a
 * vertex, warp-aggregated enqueue with __ballot_sync/__popc/__shfl_sync),
 * the host looping until the queue is empty; and a sparse lower-triangular
 * solve in one kernel, synchronisation-free (Liu et al., Euro-Par 2016): a
 * warp per row, its lanes spinning (volatile loads and __threadfence)
 * until the columns they need are done, rows taken in order from a global
 * atomic counter so no warp waits for a row that no running warp holds.  Exact checks against a CPU BFS and forward
 * substitution.  (Rows go to warps, not lanes: a lane spinning on a row
 * that another lane of its warp solves needs Volta's independent thread
 * scheduling, which rfsim's SIMT stack does not model.)
 */
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include "check.h"

__global__ void bfs_level(const int *rowptr, const int *col, int *dist, const int *qin,
                          int nin, int *qout, int *nout, int level)
{
	int lane = threadIdx.x & 31;
	for (int base = blockIdx.x * blockDim.x; base < nin; base += gridDim.x * blockDim.x) {
		int i = base + threadIdx.x;
		int u = i < nin ? qin[i] : -1;
		int b = u < 0 ? 0 : rowptr[u], e = u < 0 ? 0 : rowptr[u + 1];
		for (int k = b; k < e; k++) {
			int v = col[k];
			bool mine = atomicCAS(&dist[v], -1, level + 1) == -1;
			/* warp-aggregated enqueue of the lanes that claimed a vertex */
			unsigned act = __activemask();
			unsigned m = __ballot_sync(act, mine);
			int leader = __ffs(act) - 1, slot = 0;
			if (lane == leader && m) slot = atomicAdd(nout, __popc(m));
			slot = __shfl_sync(act, slot, leader);
			if (mine) qout[slot + __popc(m & ((1u << lane) - 1))] = v;
		}
	}
}

__global__ void sptrsv(const int *rowptr, const int *col, const double *val, const double *b,
                       double *x, volatile int *done, int *next, int n)
{
	int lane = threadIdx.x & 31;
	for (;;) {
		int row = 0;
		if (lane == 0) row = atomicAdd(next, 1);     /* rows in order: a warp each */
		row = __shfl_sync(0xffffffffu, row, 0);
		if (row >= n) return;
		double s = 0, diag = 1;
		for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += 32) {
			int c = col[k];
			if (c == row) { diag = val[k]; continue; }
			while (!done[c]) {
			}
			__threadfence();
			s += val[k] * ((volatile double *)x)[c];
		}
		for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
		diag = __shfl_sync(0xffffffffu, diag, (rowptr[row + 1] - 1 - rowptr[row]) % 32);
		if (lane == 0) {
			x[row] = (b[row] - s) / diag;
			__threadfence();
			done[row] = 1;
		}
	}
}

int main()
{
	const int n = 3000;
	/* graph: a ring plus pseudo-random chords, stored as CSR */
	std::vector<std::vector<int>> adj(n);
	uint32_t s = 7;
	for (int u = 0; u < n; u++) {
		adj[u].push_back((u + 1) % n);
		adj[(u + 1) % n].push_back(u);
		s = s * 1664525u + 1013904223u;
		if (s % 4 == 0) {
			int v = (int)(s >> 8) % n;
			adj[u].push_back(v), adj[v].push_back(u);
		}
	}
	std::vector<int> rowptr(n + 1, 0), col;
	for (int u = 0; u < n; u++) {
		rowptr[u + 1] = rowptr[u] + (int)adj[u].size();
		col.insert(col.end(), adj[u].begin(), adj[u].end());
	}
	int *drp, *dcol, *ddist, *dq[2], *dn;
	CHECK(cudaMalloc(&drp, (n + 1) * sizeof(int)));
	CHECK(cudaMalloc(&dcol, col.size() * sizeof(int)));
	CHECK(cudaMalloc(&ddist, n * sizeof(int)));
	for (auto &q : dq) CHECK(cudaMalloc(&q, n * sizeof(int)));
	CHECK(cudaMalloc(&dn, sizeof(int)));
	CHECK(cudaMemcpy(drp, rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dcol, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(ddist, 0xff, n * sizeof(int)));
	int zero = 0, src = 0, nin = 1, level = 0;
	CHECK(cudaMemcpy(ddist + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dq[0], &src, sizeof(int), cudaMemcpyHostToDevice));
	while (nin > 0) {
		CHECK(cudaMemset(dn, 0, sizeof(int)));
		bfs_level<<<4, 128>>>(drp, dcol, ddist, dq[level % 2], nin, dq[(level + 1) % 2], dn,
		                      level);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(&nin, dn, sizeof(int), cudaMemcpyDeviceToHost));
		level++;
		EXPECT(level < n, "BFS does not end");
	}
	std::vector<int> dist(n), ref(n, -1);
	CHECK(cudaMemcpy(dist.data(), ddist, n * sizeof(int), cudaMemcpyDeviceToHost));
	std::queue<int> q;
	ref[src] = 0;
	q.push(src);
	while (!q.empty()) {
		int u = q.front();
		q.pop();
		for (int v : adj[u])
			if (ref[v] < 0) ref[v] = ref[u] + 1, q.push(v);
	}
	for (int u = 0; u < n; u++) EXPECT(dist[u] == ref[u], "dist[%d] = %d, want %d", u, dist[u], ref[u]);
	std::printf("BFS: %d levels\n", level - 1);

	/* lower-triangular L: diagonal 2 + i%3, up to 3 earlier columns */
	const int m = 2000;
	std::vector<int> lp(m + 1, 0), lc;
	std::vector<double> lv, b(m);
	for (int r = 0; r < m; r++) {
		for (int k = 1; k <= 3; k++) {
			int c = r - k * k * 7 - (r % 5);
			if (c >= 0) lc.push_back(c), lv.push_back(0.25 * k - 0.1 * (r % 3));
		}
		lc.push_back(r), lv.push_back(2 + r % 3);
		lp[r + 1] = (int)lc.size();
		b[r] = std::cos(r * 0.01);
	}
	int *dlp, *dlc, *ddone, *dnext;
	double *dlv, *db, *dx;
	CHECK(cudaMalloc(&dlp, (m + 1) * sizeof(int)));
	CHECK(cudaMalloc(&dlc, lc.size() * sizeof(int)));
	CHECK(cudaMalloc(&dlv, lv.size() * sizeof(double)));
	CHECK(cudaMalloc(&db, m * sizeof(double)));
	CHECK(cudaMalloc(&dx, m * sizeof(double)));
	CHECK(cudaMalloc(&ddone, m * sizeof(int)));
	CHECK(cudaMalloc(&dnext, sizeof(int)));
	CHECK(cudaMemcpy(dlp, lp.data(), (m + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dlc, lc.data(), lc.size() * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dlv, lv.data(), lv.size() * sizeof(double), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b.data(), m * sizeof(double), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(ddone, 0, m * sizeof(int)));
	CHECK(cudaMemset(dnext, 0, sizeof(int)));
	sptrsv<<<2, 64>>>(dlp, dlc, dlv, db, dx, ddone, dnext, m);
	CHECK(cudaGetLastError());
	std::vector<double> x(m), xr(m);
	CHECK(cudaMemcpy(x.data(), dx, m * sizeof(double), cudaMemcpyDeviceToHost));
	for (int r = 0; r < m; r++) {
		double acc = b[r], diag = 1;
		for (int k = lp[r]; k < lp[r + 1]; k++)
			if (lc[k] == r) diag = lv[k]; else acc -= lv[k] * xr[lc[k]];
		xr[r] = acc / diag;
		/* the warp sums a row's (at most 3) products in another order: a few ulp */
		EXPECT(std::fabs(x[r] - xr[r]) <= 1e-13 * (1 + std::fabs(xr[r])),
		       "x[%d] = %.17g, want %.17g", r, x[r], xr[r]);
	}
	std::printf("PASS\n");
	return 0;
}
