/*
 * graph_hand.c -- CUDA graphs, stream capture and a cooperative launch
 * through libcudart on machines without the CUDA toolkit (CI's): the
 * kernels come from PTX files in hand-built fatbins (fatbin_build.h), the
 * host code is C against rfsim's cudart.h.  graphs.cu and coopgrid.cu test
 * the same with nvcc; this is their toolkit-free core:
 *  - a capture forked over two streams by events and joined back (copies,
 *    a kernel, a host function), launched three times, nothing run while
 *    capturing;
 *  - an explicit graph whose kernel node copied its arguments, updated in
 *    the executable graph (cudaGraphExecKernelNodeSetParams);
 *  - a synchronous copy during a global capture: refused, capture invalidated;
 *  - nvcc's grid.sync() (gridsync.cu) in a cooperative launch, and an
 *    oversized cooperative grid refused.
 *
 *   graph_hand SAXPY.ptx GRIDSYNC.ptx   -> "PASS" and exit 0
 *
 * SAXPY.ptx: saxpy(int n, float a, const float *x, float *y), y = a*x + y
 * (workloads/saxpy/saxpy.ptx); GRIDSYNC.ptx: tests/ptx/gridsync.sm80.ptx.
 */
#include "fatbin_build.h"

#define EXPECT(cond, ...) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
	fprintf(stderr, __VA_ARGS__); \
	fputc('\n', stderr); \
	exit(1); } } while (0)

enum { N = 1000 };
static const char saxpy_stub, gridsum_stub;   /* the kernels' "host stubs" */

static void count_up(void *p) { ++*(int *)p; }

static void register_ptx(Fatbin *f, const char *path, const void *stub, const char *name)
{
	size_t n;
	char *ptx = slurp(path, &n);
	container_begin(f);
	entry(f, 1, 80, ptx, n + 1, PLAIN);
	container_register(f, stub, name);
	free(ptx);
}

static void check_saxpy(const float *y, float a, const char *what)
{
	for (int i = 0; i < N; i++)
		EXPECT(y[i] == a * i + 1.0f, "%s: y[%d] = %g, want %g", what, i, y[i], a * i + 1.0f);
}

static void captured(float *dx, float *dy)
{
	static float x[N], y[N], out[N];
	for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f, out[i] = -1.0f;
	cudaStream_t s1, s2;
	cudaEvent_t fork, join;
	CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	CHECK(cudaEventCreate(&fork));
	CHECK(cudaEventCreate(&join));
	int n = N, calls = 0;
	float a = 2.0f;
	void *args[] = {&n, &a, &dx, &dy};
	CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	CHECK(cudaMemcpyAsync(dx, x, sizeof x, cudaMemcpyHostToDevice, s1));
	CHECK(cudaEventRecord(fork, s1));
	CHECK(cudaStreamWaitEvent(s2, fork, 0));
	CHECK(cudaMemcpyAsync(dy, y, sizeof y, cudaMemcpyHostToDevice, s2));
	CHECK(cudaLaunchKernel(&saxpy_stub, (dim3){4, 1, 1}, (dim3){256, 1, 1}, args, 0, s2));
	a = 100.0f;                                  /* the node copied 2 */
	CHECK(cudaEventRecord(join, s2));
	CHECK(cudaStreamWaitEvent(s1, join, 0));
	CHECK(cudaLaunchHostFunc(s1, count_up, &calls));
	CHECK(cudaMemcpyAsync(out, dy, sizeof out, cudaMemcpyDeviceToHost, s1));
	cudaGraph_t g;
	CHECK(cudaStreamEndCapture(s1, &g));
	EXPECT(calls == 0 && out[3] == -1.0f, "captured work ran while capturing");
	size_t nodes = 0;
	CHECK(cudaGraphGetNodes(g, NULL, &nodes));
	EXPECT(nodes == 5, "%zu nodes captured, want 5", nodes);
	cudaGraphExec_t x1;
	CHECK(cudaGraphInstantiate(&x1, g, 0));
	for (int i = 1; i <= 3; i++) {
		CHECK(cudaGraphLaunch(x1, s1));
		CHECK(cudaStreamSynchronize(s1));
		check_saxpy(out, 2.0f, "captured graph");
		EXPECT(calls == i, "host node ran %d times in %d launches", calls, i);
	}
	CHECK(cudaGraphExecDestroy(x1));
	CHECK(cudaGraphDestroy(g));

	/* what global capture forbids */
	CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	EXPECT(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost) ==
	       cudaErrorStreamCaptureUnsupported, "synchronous copy during capture");
	EXPECT(cudaStreamEndCapture(s1, &g) == cudaErrorStreamCaptureInvalidated && !g,
	       "capture not invalidated");
	(void)cudaGetLastError();
	CHECK(cudaStreamDestroy(s1));
	CHECK(cudaStreamDestroy(s2));
	CHECK(cudaEventDestroy(fork));
	CHECK(cudaEventDestroy(join));
}

static void explicit_graph(float *dx, float *dy)
{
	static float x[N], y[N];
	for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
	cudaGraph_t g;
	cudaGraphNode_t cx, cy, k;
	CHECK(cudaGraphCreate(&g, 0));
	CHECK(cudaGraphAddMemcpyNode1D(&cx, g, NULL, 0, dx, x, sizeof x, cudaMemcpyHostToDevice));
	CHECK(cudaGraphAddMemcpyNode1D(&cy, g, NULL, 0, dy, y, sizeof y, cudaMemcpyHostToDevice));
	int n = N;
	float a = 3.0f;
	void *args[] = {&n, &a, &dx, &dy};
	struct cudaKernelNodeParams p = {(void *)&saxpy_stub, {4, 1, 1}, {256, 1, 1}, 0, args, NULL};
	cudaGraphNode_t deps[] = {cx, cy};
	CHECK(cudaGraphAddKernelNode(&k, g, deps, 2, &p));
	a = -7.0f;
	cudaGraphExec_t x1;
	CHECK(cudaGraphInstantiate(&x1, g, 0));
	static float out[N];
	CHECK(cudaGraphLaunch(x1, 0));
	CHECK(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
	check_saxpy(out, 3.0f, "explicit graph");
	a = 5.0f;
	CHECK(cudaGraphExecKernelNodeSetParams(x1, k, &p));
	CHECK(cudaGraphLaunch(x1, 0));
	CHECK(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
	check_saxpy(out, 5.0f, "after cudaGraphExecKernelNodeSetParams");
	CHECK(cudaGraphExecDestroy(x1));
	CHECK(cudaGraphDestroy(g));
}

/* gridsync.cu's gridsum: rounds whose update needs the last round's total */
static void cooperative(void)
{
	enum { M = 3000, ROUNDS = 5, THREADS = 64 };
	int sms, per_sm, coop;
	CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, &gridsum_stub, THREADS, 0));
	EXPECT(coop == 1 && per_sm >= 2, "cooperative launch %d, %d blocks per SM", coop, per_sm);
	int blocks = 2 * sms, n = M, rounds = ROUNDS;
	static unsigned data[M], want[M];
	unsigned sums[ROUNDS], ref[ROUNDS], *dd, *dp, *ds;
	for (int i = 0; i < M; i++) data[i] = want[i] = (unsigned)i;
	for (int r = 0; r < ROUNDS; r++) {
		unsigned carry = r ? ref[r - 1] % 7u : 0u, t = 0;
		for (int i = 0; i < M; i++) t += want[i] = want[i] * 3u + (unsigned)r + carry;
		ref[r] = t;
	}
	CHECK(cudaMalloc((void **)&dd, sizeof data));
	CHECK(cudaMalloc((void **)&dp, blocks * sizeof(unsigned)));
	CHECK(cudaMalloc((void **)&ds, sizeof sums));
	CHECK(cudaMemcpy(dd, data, sizeof data, cudaMemcpyHostToDevice));
	void *args[] = {&dd, &dp, &ds, &n, &rounds};
	CHECK(cudaLaunchCooperativeKernel(&gridsum_stub, (dim3){blocks, 1, 1},
	                                  (dim3){THREADS, 1, 1}, args, 0, NULL));
	CHECK(cudaMemcpy(sums, ds, sizeof sums, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(data, dd, sizeof data, cudaMemcpyDeviceToHost));
	for (int r = 0; r < ROUNDS; r++)
		EXPECT(sums[r] == ref[r], "round %d: total %u, want %u", r, sums[r], ref[r]);
	for (int i = 0; i < M; i++) EXPECT(data[i] == want[i], "data[%d] = %u", i, data[i]);
	cudaError_t e = cudaLaunchCooperativeKernel(&gridsum_stub,
	                                            (dim3){(unsigned)(per_sm * sms + 1), 1, 1},
	                                            (dim3){THREADS, 1, 1}, args, 0, NULL);
	EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "oversized grid: %s", cudaGetErrorName(e));
	(void)cudaGetLastError();
	CHECK(cudaFree(dd));
	CHECK(cudaFree(dp));
	CHECK(cudaFree(ds));
}

int main(int argc, char **argv)
{
	if (argc != 3) return fprintf(stderr, "usage: graph_hand SAXPY.ptx GRIDSYNC.ptx\n"), 2;
	Fatbin f[2];
	register_ptx(&f[0], argv[1], &saxpy_stub, "saxpy");
	register_ptx(&f[1], argv[2], &gridsum_stub, "_Z7gridsumPjS_S_ii");
	float *dx, *dy;
	CHECK(cudaMalloc((void **)&dx, N * sizeof(float)));
	CHECK(cudaMalloc((void **)&dy, N * sizeof(float)));
	captured(dx, dy);
	explicit_graph(dx, dy);
	cooperative();
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
	printf("PASS\n");
	return 0;
}
