/*
 * graphs.cu -- CUDA graphs as programs use them, checked against the CPU:
 *  1. stream capture of copies, a memset, kernels on two streams forked and
 *     joined through events (as NVIDIA's simpleCudaGraphs does) and a host
 *     function; nothing runs while capturing, the graph runs on each launch;
 *  2. an explicit graph -- memset, two Jacobi kernels, a residual kernel, a
 *     device-to-host copy, a host node, an empty node and a child graph,
 *     created out of launch order, edges added afterwards -- launched 10
 *     times, its kernel arguments copied when the node was made; then one
 *     kernel node's arguments changed in the executable graph
 *     (cudaGraphExecKernelNodeSetParams);
 *  3. cudaGraphExecUpdate from a re-captured graph of the same topology
 *     (jacobiCudaGraphs' way), and its refusal of another topology; that
 *     executable graph launched inside another capture (a child graph);
 *  4. the calls that capture forbids: a synchronous copy and a stream
 *     synchronisation invalidate the capture, the legacy stream cannot be
 *     captured nor used beside a blocking capturing stream, a fork not
 *     joined, a captured event queried; relaxed mode permits cudaMalloc.
 * Built also with --default-stream per-thread, where stream 0 is the
 * thread's own stream: the legacy stream is named cudaStreamLegacy here.
 */
#include <cmath>
#include <cstring>
#include <cuda_runtime.h>

#include "check.h"

__global__ void fill(float *v, int n, float base)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] = base + i;
}

__global__ void scale(float *v, int n, float k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) v[i] *= k;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i] + c[i];
}

/* one Jacobi sweep of the tridiagonal system d x[i] + x[i-1] + x[i+1] = b[i] */
__global__ void jacobi(const float *x, float *y, const float *b, int n, float d)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float l = i > 0 ? x[i - 1] : 0.0f, r = i < n - 1 ? x[i + 1] : 0.0f;
	y[i] = (b[i] - l - r) / d;
}

__global__ void residual(const float *x, const float *y, float *diff, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) diff[i] += fabsf(x[i] - y[i]);
}

__global__ void bump(int *c) { atomicAdd(c, 1); }

static void CUDART_CB count_up(void *p) { ++*(int *)p; }

struct Sum { const float *v; int n; double total; };
static void CUDART_CB sum_host(void *p)
{
	Sum *s = (Sum *)p;
	for (int i = 0; i < s->n; i++) s->total += s->v[i];
}

static const int N = 1000, T = 128, G = (N + T - 1) / T;

static size_t node_count(cudaGraph_t g)
{
	size_t n = 0;
	CHECK(cudaGraphGetNodes(g, nullptr, &n));
	return n;
}

/* 1: capture with fork and join over two streams */
static void captured_pipeline()
{
	cudaStream_t s1, s2;
	CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	cudaEvent_t fork, join;
	CHECK(cudaEventCreate(&fork));
	CHECK(cudaEventCreate(&join));
	float *a, *b, *c, *host_in, *host_out;
	CHECK(cudaMalloc(&a, N * sizeof(float)));
	CHECK(cudaMalloc(&b, N * sizeof(float)));
	CHECK(cudaMalloc(&c, N * sizeof(float)));
	CHECK(cudaMallocHost(&host_in, N * sizeof(float)));
	CHECK(cudaMallocHost(&host_out, N * sizeof(float)));
	for (int i = 0; i < N; i++) host_in[i] = 0.5f * i, host_out[i] = -1.0f;
	int calls = 0;

	CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	cudaStreamCaptureStatus st;
	CHECK(cudaStreamIsCapturing(s1, &st));
	EXPECT(st == cudaStreamCaptureStatusActive, "s1 capture status %d", (int)st);
	CHECK(cudaStreamIsCapturing(s2, &st));
	EXPECT(st == cudaStreamCaptureStatusNone, "s2 captures before the fork");
	CHECK(cudaMemsetAsync(c, 0, N * sizeof(float), s1));
	CHECK(cudaMemcpyAsync(a, host_in, N * sizeof(float), cudaMemcpyHostToDevice, s1));
	CHECK(cudaEventRecord(fork, s1));
	CHECK(cudaStreamWaitEvent(s2, fork, 0));             /* s2 joins the capture */
	CHECK(cudaStreamIsCapturing(s2, &st));
	EXPECT(st == cudaStreamCaptureStatusActive, "s2 not forked into the capture");
	scale<<<G, T, 0, s1>>>(a, N, 3.0f);
	float base = 7.0f;
	fill<<<G, T, 0, s2>>>(b, N, base);
	base = 1000.0f;                                     /* captured: the value was copied */
	CHECK(cudaEventRecord(join, s2));
	EXPECT(cudaEventQuery(join) == cudaErrorCapturedEvent, "captured event queried");
	EXPECT(cudaGetLastError() == cudaErrorCapturedEvent, "query error not recorded");
	CHECK(cudaStreamWaitEvent(s1, join, 0));
	add<<<G, T, 0, s1>>>(a, b, c, N);
	CHECK(cudaLaunchHostFunc(s1, count_up, &calls));
	unsigned long long id;
	cudaGraph_t inside;
	const cudaGraphNode_t *deps;
	size_t ndeps;
	CHECK(cudaStreamGetCaptureInfo(s1, &st, &id, &inside, &deps, nullptr, &ndeps));
	EXPECT(st == cudaStreamCaptureStatusActive && inside && ndeps == 1,
	       "capture info: status %d, %zu dependencies", (int)st, ndeps);
	cudaGraphNodeType type;
	CHECK(cudaGraphNodeGetType(deps[0], &type));
	EXPECT(type == cudaGraphNodeTypeHost, "last captured node has type %d", (int)type);
	CHECK(cudaMemcpyAsync(host_out, c, N * sizeof(float), cudaMemcpyDeviceToHost, s1));
	cudaGraph_t graph;
	CHECK(cudaStreamEndCapture(s1, &graph));
	CHECK(cudaStreamIsCapturing(s2, &st));
	EXPECT(st == cudaStreamCaptureStatusNone, "s2 still captures after the end");
	EXPECT(calls == 0 && host_out[5] == -1.0f, "captured work ran during capture");
	EXPECT(node_count(graph) == 7, "captured %zu nodes, want 7", node_count(graph));
	size_t roots = 0;
	CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
	EXPECT(roots == 1, "%zu root nodes, want 1 (the memset)", roots);

	cudaGraphExec_t exec;
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	for (int iter = 1; iter <= 3; iter++) {
		CHECK(cudaGraphLaunch(exec, s1));
		CHECK(cudaStreamSynchronize(s1));
		EXPECT(calls == iter, "host node ran %d times after %d launches", calls, iter);
		for (int i = 0; i < N; i++) {
			/* a is copied in afresh and c zeroed on each launch */
			float want = 3.0f * 0.5f * i + 7.0f + i;
			EXPECT(host_out[i] == want, "launch %d: c[%d] = %g, want %g", iter, i,
			       host_out[i], want);
		}
	}
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(graph));
	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFree(c));
	CHECK(cudaFreeHost(host_in));
	CHECK(cudaFreeHost(host_out));
	CHECK(cudaStreamDestroy(s1));
	CHECK(cudaStreamDestroy(s2));
}

static cudaKernelNodeParams kparams(void *fn, void **args)
{
	cudaKernelNodeParams p = {};
	p.func = fn;
	p.gridDim = dim3(G);
	p.blockDim = dim3(T);
	p.kernelParams = args;
	return p;
}

/* CPU reference: `pairs` pairs of Jacobi sweeps from x, each pair's residual in resid */
static void jacobi_cpu(float *x, const float *b, float d, int pairs, double *resid)
{
	static float y[N];
	for (int s = 0; s < pairs; s++) {
		for (int i = 0; i < N; i++)
			y[i] = (b[i] - (i > 0 ? x[i - 1] : 0.0f) - (i < N - 1 ? x[i + 1] : 0.0f)) / d;
		for (int i = 0; i < N; i++)
			x[i] = (b[i] - (i > 0 ? y[i - 1] : 0.0f) - (i < N - 1 ? y[i + 1] : 0.0f)) / d;
		resid[s] = 0.0;
		for (int i = 0; i < N; i++) resid[s] += std::fabs(x[i] - y[i]);
	}
}

/* 2: an explicit graph, launched many times, one node's arguments updated */
static void explicit_jacobi()
{
	float *x, *y, *b, *diff, *hx, *hb, *hdiff;
	int *counter;
	CHECK(cudaMalloc(&x, N * sizeof(float)));
	CHECK(cudaMalloc(&y, N * sizeof(float)));
	CHECK(cudaMalloc(&b, N * sizeof(float)));
	CHECK(cudaMalloc(&diff, N * sizeof(float)));
	CHECK(cudaMalloc(&counter, sizeof(int)));
	CHECK(cudaMemset(counter, 0, sizeof(int)));
	CHECK(cudaMallocHost(&hdiff, N * sizeof(float)));
	hx = new float[N];
	hb = new float[N];
	for (int i = 0; i < N; i++) hx[i] = 0.0f, hb[i] = 1.0f + (i % 7);
	CHECK(cudaMemcpy(b, hb, N * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(x, hx, N * sizeof(float), cudaMemcpyHostToDevice));

	cudaGraph_t g;
	CHECK(cudaGraphCreate(&g, 0));
	cudaGraphNode_t zero, k1, k2, k3, d2h, host, empty, child;
	/* the copy-out and the host node first: creation order is not launch order
	   (pins a bug: instantiating cloned the edges in creation order and read
	   past the clone's nodes when a node depended on a later one) */
	CHECK(cudaGraphAddMemcpyNode1D(&d2h, g, nullptr, 0, hdiff, diff, N * sizeof(float),
	                               cudaMemcpyDeviceToHost));
	Sum sum = {hdiff, N, 0.0};
	cudaHostNodeParams hp = {sum_host, &sum};
	CHECK(cudaGraphAddHostNode(&host, g, &d2h, 1, &hp));
	cudaMemsetParams ms = {};
	ms.dst = diff, ms.value = 0, ms.elementSize = 4, ms.width = N, ms.height = 1;
	CHECK(cudaGraphAddMemsetNode(&zero, g, nullptr, 0, &ms));
	int n = N;
	float d = 4.0f;
	void *a1[] = {&x, &y, &b, &n, &d};
	cudaKernelNodeParams p1 = kparams((void *)jacobi, a1);
	CHECK(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &p1));
	void *a2[] = {&y, &x, &b, &n, &d};
	cudaKernelNodeParams p2 = kparams((void *)jacobi, a2);
	CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &p2));
	d = 1e9f;                                    /* the nodes keep the 4 they copied */
	void *a3[] = {&x, &y, &diff, &n};
	cudaKernelNodeParams p3 = kparams((void *)residual, a3);
	CHECK(cudaGraphAddKernelNode(&k3, g, &k2, 1, &p3));
	cudaGraphNode_t from[] = {zero, k3}, to[] = {k3, d2h};   /* edges added later */
	CHECK(cudaGraphAddDependencies(g, from, to, nullptr, 2));
	CHECK(cudaGraphAddEmptyNode(&empty, g, &host, 1));
	cudaGraph_t sub;                             /* a child graph: one kernel */
	CHECK(cudaGraphCreate(&sub, 0));
	cudaGraphNode_t subk;
	void *ab[] = {&counter};
	cudaKernelNodeParams pb = {};
	pb.func = (void *)bump, pb.gridDim = dim3(1), pb.blockDim = dim3(32), pb.kernelParams = ab;
	CHECK(cudaGraphAddKernelNode(&subk, sub, nullptr, 0, &pb));
	CHECK(cudaGraphAddChildGraphNode(&child, g, &empty, 1, sub));
	CHECK(cudaGraphDestroy(sub));                /* the node holds its own copy */
	EXPECT(node_count(g) == 8, "%zu nodes, want 8", node_count(g));
	size_t roots = 0;
	CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
	EXPECT(roots == 2, "%zu roots, want 2 (memset, first sweep)", roots);
	cudaKernelNodeParams got;
	CHECK(cudaGraphKernelNodeGetParams(k2, &got));
	EXPECT(got.func == (void *)jacobi && got.gridDim.x == (unsigned)G &&
	       *(float *)got.kernelParams[4] == 4.0f, "kernel node parameters read back wrong");

	cudaGraphExec_t exec;
	CHECK(cudaGraphInstantiateWithFlags(&exec, g, 0));
	cudaStream_t s;
	CHECK(cudaStreamCreate(&s));
	const int iters = 10;
	double cpu_resid[iters], gpu_resid[iters];
	for (int it = 0; it < iters; it++) {
		sum.total = 0.0;
		CHECK(cudaGraphLaunch(exec, s));
		gpu_resid[it] = sum.total;     /* the host node ran after this launch's copy */
	}
	CHECK(cudaStreamSynchronize(s));
	jacobi_cpu(hx, hb, 4.0f, iters, cpu_resid);
	float *gx = new float[N];
	CHECK(cudaMemcpy(gx, x, N * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		EXPECT(std::fabs(gx[i] - hx[i]) <= 1e-5f * std::fabs(hx[i]) + 1e-6f,
		       "after %d launches x[%d] = %.9g, want %.9g", iters, i, gx[i], hx[i]);
	for (int it = 0; it < iters; it++)
		EXPECT(std::fabs(gpu_resid[it] - cpu_resid[it]) <= 1e-4 * cpu_resid[it] + 1e-9,
		       "launch %d: residual %.9g, want %.9g", it, gpu_resid[it], cpu_resid[it]);
	int bumps;
	CHECK(cudaMemcpy(&bumps, counter, sizeof bumps, cudaMemcpyDeviceToHost));
	EXPECT(bumps == 32 * iters, "child graph kernel counted %d, want %d", bumps, 32 * iters);

	/* the executable graph's second sweep now uses d = 8; the graph itself keeps 4 */
	float d8 = 8.0f;
	void *a2b[] = {&y, &x, &b, &n, &d8};
	cudaKernelNodeParams p2b = kparams((void *)jacobi, a2b);
	CHECK(cudaGraphExecKernelNodeSetParams(exec, k2, &p2b));
	CHECK(cudaGraphLaunch(exec, s));
	static float ref_y[N];
	for (int i = 0; i < N; i++)
		ref_y[i] = (hb[i] - (i > 0 ? hx[i - 1] : 0.0f) - (i < N - 1 ? hx[i + 1] : 0.0f)) / 4;
	for (int i = 0; i < N; i++)
		hx[i] = (hb[i] - (i > 0 ? ref_y[i - 1] : 0.0f) - (i < N - 1 ? ref_y[i + 1] : 0.0f)) / 8;
	CHECK(cudaMemcpy(gx, x, N * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		EXPECT(std::fabs(gx[i] - hx[i]) <= 1e-5f * std::fabs(hx[i]) + 1e-6f,
		       "after SetParams x[%d] = %.9g, want %.9g", i, gx[i], hx[i]);
	CHECK(cudaGraphKernelNodeGetParams(k2, &got));
	EXPECT(*(float *)got.kernelParams[4] == 4.0f, "the graph's node changed with the exec");
	CHECK(cudaGraphDebugDotPrint(g, "/dev/null", 0));

	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(g));
	CHECK(cudaStreamDestroy(s));
	delete[] gx;
	delete[] hx;
	delete[] hb;
	CHECK(cudaFreeHost(hdiff));
	CHECK(cudaFree(x));
	CHECK(cudaFree(y));
	CHECK(cudaFree(b));
	CHECK(cudaFree(diff));
	CHECK(cudaFree(counter));
}

static cudaGraph_t capture_scale(cudaStream_t s, float *v, float k, int kernels)
{
	cudaGraph_t g;
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	for (int i = 0; i < kernels; i++) scale<<<G, T, 0, s>>>(v, N, k);
	CHECK(cudaStreamEndCapture(s, &g));
	return g;
}

/* 3: cudaGraphExecUpdate */
static void exec_update()
{
	cudaStream_t s;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	float *v, h[N];
	CHECK(cudaMalloc(&v, N * sizeof(float)));
	fill<<<G, T>>>(v, N, 1.0f);
	CHECK(cudaGetLastError());
	cudaGraph_t g2 = capture_scale(s, v, 2.0f, 1);
	cudaGraphExec_t exec;
	cudaGraphInstantiateParams ip = {};
	ip.flags = cudaGraphInstantiateFlagUpload, ip.uploadStream = s;
	CHECK(cudaGraphInstantiateWithParams(&exec, g2, &ip));
	EXPECT(ip.result_out == cudaGraphInstantiateSuccess, "instantiate result %d",
	       (int)ip.result_out);
	cudaGraph_t g3 = capture_scale(s, v, 3.0f, 1);
	cudaGraphExecUpdateResultInfo info;
	CHECK(cudaGraphExecUpdate(exec, g3, &info));
	EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
	CHECK(cudaGraphLaunch(exec, s));
	CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		EXPECT(h[i] == 3.0f * (1.0f + i), "after update v[%d] = %g", i, h[i]);
	cudaGraph_t twice = capture_scale(s, v, 5.0f, 2);
	EXPECT(cudaGraphExecUpdate(exec, twice, &info) == cudaErrorGraphExecUpdateFailure,
	       "update to another topology accepted");
	EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged, "result %d",
	       (int)info.result);
	EXPECT(cudaGetLastError() == cudaErrorGraphExecUpdateFailure, "update error not recorded");
	CHECK(cudaGraphLaunch(exec, s));                   /* still the scale by 3 */
	CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
	EXPECT(h[10] == 9.0f * 11.0f, "after a refused update v[10] = %g", h[10]);

	/* an executable graph launched while capturing: a child-graph node; a 2D
	   copy captured beside it */
	float *w;
	size_t pitch;
	CHECK(cudaMallocPitch((void **)&w, &pitch, 16 * sizeof(float), 4));
	cudaGraph_t outer;
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK(cudaGraphLaunch(exec, s));
	CHECK(cudaMemcpy2DAsync(w, pitch, v, 16 * sizeof(float), 16 * sizeof(float), 4,
	                        cudaMemcpyDeviceToDevice, s));
	CHECK(cudaStreamEndCapture(s, &outer));
	cudaGraphNode_t on[2];
	size_t non = 2;
	CHECK(cudaGraphGetNodes(outer, on, &non));
	cudaGraphNodeType t0, t1;
	CHECK(cudaGraphNodeGetType(on[0], &t0));
	CHECK(cudaGraphNodeGetType(on[1], &t1));
	EXPECT(non == 2 && t0 == cudaGraphNodeTypeGraph && t1 == cudaGraphNodeTypeMemcpy,
	       "captured graph launch and 2D copy: %zu nodes, types %d %d", non, (int)t0, (int)t1);
	cudaGraphExec_t xo;
	CHECK(cudaGraphInstantiate(&xo, outer, 0));
	CHECK(cudaGraphLaunch(xo, s));
	float row[16];
	CHECK(cudaMemcpy(row, (char *)w + 3 * pitch, sizeof row, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 16; i++)
		EXPECT(row[i] == 27.0f * (1.0f + 48 + i), "row 3 of the 2D copy [%d] = %g", i, row[i]);
	CHECK(cudaGraphExecDestroy(xo));
	CHECK(cudaGraphDestroy(outer));
	CHECK(cudaFree(w));
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(g2));
	CHECK(cudaGraphDestroy(g3));
	CHECK(cudaGraphDestroy(twice));
	CHECK(cudaFree(v));
	CHECK(cudaStreamDestroy(s));
}

/* 4: what capture forbids */
static void capture_errors()
{
	cudaStream_t s, other;
	CHECK(cudaStreamCreate(&s));                       /* blocking: the legacy stream waits */
	CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
	float *v, h[4];
	CHECK(cudaMalloc(&v, N * sizeof(float)));
	cudaGraph_t g = nullptr;

	EXPECT(cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal) ==
	       cudaErrorStreamCaptureUnsupported, "the legacy stream was captured");
	EXPECT(cudaStreamEndCapture(s, &g) == cudaErrorIllegalState, "end without begin");
	(void)cudaGetLastError();

	/* a synchronous copy in global mode: refused, and the capture is invalidated */
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	scale<<<G, T, 0, s>>>(v, N, 2.0f);
	EXPECT(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost) ==
	       cudaErrorStreamCaptureUnsupported, "cudaMemcpy during global capture");
	cudaStreamCaptureStatus st;
	CHECK(cudaStreamIsCapturing(s, &st));
	EXPECT(st == cudaStreamCaptureStatusInvalidated, "capture status %d", (int)st);
	EXPECT(cudaStreamEndCapture(s, &g) == cudaErrorStreamCaptureInvalidated && !g,
	       "an invalidated capture ended well");
	(void)cudaGetLastError();

	/* synchronising a capturing stream */
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	EXPECT(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported,
	       "stream synchronised during capture");
	EXPECT(cudaStreamEndCapture(s, &g) == cudaErrorStreamCaptureInvalidated, "not invalidated");
	(void)cudaGetLastError();

	/* the legacy stream beside a blocking capturing stream */
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	scale<<<G, T, 0, cudaStreamLegacy>>>(v, N, 2.0f);
	EXPECT(cudaGetLastError() == cudaErrorStreamCaptureImplicit, "legacy launch in capture");
	EXPECT(cudaStreamEndCapture(s, &g) == cudaErrorStreamCaptureInvalidated, "not invalidated");
	(void)cudaGetLastError();

	/* relaxed mode permits cudaMalloc; a non-blocking stream leaves the legacy one free */
	CHECK(cudaStreamBeginCapture(other, cudaStreamCaptureModeRelaxed));
	float *w;
	CHECK(cudaMalloc(&w, 64));
	scale<<<G, T, 0, other>>>(v, N, 2.0f);
	CHECK(cudaMemset(w, 0, 64));
	CHECK(cudaStreamEndCapture(other, &g));
	EXPECT(node_count(g) == 1, "%zu nodes", node_count(g));
	CHECK(cudaGraphDestroy(g));
	CHECK(cudaFree(w));

	/* a fork never joined */
	cudaEvent_t e;
	CHECK(cudaEventCreate(&e));
	CHECK(cudaStreamBeginCapture(other, cudaStreamCaptureModeGlobal));
	CHECK(cudaEventRecord(e, other));
	CHECK(cudaStreamWaitEvent(s, e, 0));
	scale<<<G, T, 0, s>>>(v, N, 2.0f);
	EXPECT(cudaStreamEndCapture(other, &g) == cudaErrorStreamCaptureUnjoined,
	       "unjoined fork accepted");
	CHECK(cudaStreamIsCapturing(s, &st));
	EXPECT(st == cudaStreamCaptureStatusNone, "forked stream still capturing");
	(void)cudaGetLastError();

	/* graph features rfsim refuses by name */
	cudaGraph_t eg;
	CHECK(cudaGraphCreate(&eg, 0));
	cudaGraphNode_t node;
	cudaMemAllocNodeParams mp = {};
	EXPECT(cudaGraphAddMemAllocNode(&node, eg, nullptr, 0, &mp) == cudaErrorNotSupported,
	       "memory allocation nodes");
	(void)cudaGetLastError();
	cudaGraphNodeParams cond = {};
	cond.type = cudaGraphNodeTypeConditional;
	EXPECT(cudaGraphAddNode(&node, eg, nullptr, nullptr, 0, &cond) == cudaErrorNotSupported,
	       "conditional nodes");
	(void)cudaGetLastError();
	CHECK(cudaGraphDestroy(eg));

	/* after all that, ordinary work still runs */
	CHECK(cudaMemset(v, 0, N * sizeof(float)));
	fill<<<G, T, 0, s>>>(v, N, 2.0f);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
	EXPECT(h[3] == 5.0f, "v[3] = %g", h[3]);
	CHECK(cudaEventDestroy(e));
	CHECK(cudaFree(v));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaStreamDestroy(other));
}

int main()
{
	captured_pipeline();
	explicit_jacobi();
	exec_update();
	capture_errors();
	std::printf("PASS\n");
	return 0;
}
