/*
 * capture.c -- stream capture: work issued to a capturing stream becomes
 * nodes of a graph instead of running.
 *
 * cudaStreamBeginCapture starts a capture sequence on its origin stream.
 * Each stream taking part (a member) keeps the set of nodes its next node
 * depends on: a kernel launch, asynchronous copy or memset, host function
 * or graph launch on a member adds one node after that set (graph.c's
 * cudaGraphAdd*Node) and makes the set that node.  Events carry
 * dependencies between streams as on NVIDIA's runtime: cudaEventRecord on
 * a member tags the event with the member's set; cudaStreamWaitEvent of a
 * tagged event makes the waiting stream a member (a fork) or adds the set
 * to its own (a join).  cudaStreamEndCapture on the origin hands back the
 * graph, provided every other member was joined back into the origin: its
 * set must lie among the origin's set and that set's ancestors, else
 * cudaErrorStreamCaptureUnjoined.
 *
 * Calls that cannot be captured fail as NVIDIA's do and invalidate the
 * capture (cudaStreamEndCapture then returns
 * cudaErrorStreamCaptureInvalidated):
 *  - synchronising or querying a member (cudaErrorStreamCaptureUnsupported),
 *    or querying an event recorded in a capture (cudaErrorCapturedEvent);
 *  - "potentially unsafe" calls -- synchronous copies and memsets,
 *    cudaMalloc, cudaFree, cudaDeviceSynchronize -- while a capture begun in
 *    global or thread-local mode is under way, unless the calling thread
 *    switched itself to relaxed mode with cudaThreadExchangeStreamCaptureMode
 *    (cudaErrorStreamCaptureUnsupported);
 *  - work on the legacy default stream while a member is a blocking stream,
 *    which the legacy stream would implicitly wait for
 *    (cudaErrorStreamCaptureImplicit).
 * Capture modes are per capture as on NVIDIA's, but the runtime is used
 * from one host thread (rt.h), so global and thread-local behave alike.
 * Waiting on an event not recorded in the capture adds no dependency:
 * the work it marks has completed, as all work has (rt.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cudart/rt.h"

typedef struct NodeSet {
	cudaGraphNode_t *v;
	size_t n, cap;
} NodeSet;

typedef struct Capture {
	cudaGraph_t graph;               /* what the capture builds */
	cudaStream_t origin;             /* where it began and must end */
	enum cudaStreamCaptureMode mode;
	unsigned long long id;           /* cudaStreamGetCaptureInfo's id, unique per process */
	int invalid;                     /* an illegal call broke it */
} Capture;

typedef struct Member {              /* a stream in a capture, or an event recorded in one */
	const void *handle;
	Capture *c;
	NodeSet deps;                    /* what the stream's next node depends on */
} Member;


static const char *mode_name(enum cudaStreamCaptureMode m)
{
	return m == cudaStreamCaptureModeGlobal ? "global"
	       : m == cudaStreamCaptureModeThreadLocal ? "thread-local" : "relaxed";
}

static Member *lookup(Member *list, size_t n, const void *h)
{
	for (size_t i = 0; h && i < n; i++)
		if (list[i].handle == h) return &list[i];
	return NULL;
}

static Member *member(cudaStream_t s)
{
	RtState *rs = rt_state();
	return lookup(rs->members, rs->nmembers, s);
}

static void set_assign(NodeSet *to, const cudaGraphNode_t *v, size_t n)
{
	VEC_RESERVE(to->v, to->cap, n + 1);
	if (n) memcpy(to->v, v, n * sizeof *v);
	to->n = n;
}

static void set_add(NodeSet *to, cudaGraphNode_t x)
{
	for (size_t i = 0; i < to->n; i++)
		if (to->v[i] == x) return;
	VEC_RESERVE(to->v, to->cap, to->n + 1);
	to->v[to->n++] = x;
}

static void drop(Member *list, size_t *n, size_t i)
{
	free(list[i].deps.v);
	list[i] = list[--*n];
}

/* end capture c: its streams and events leave it (its graph is the caller's) */
static void leave(Capture *c)
{
	RtState *rs = rt_state();
	for (size_t i = rs->nmembers; i-- > 0;)
		if (rs->members[i].c == c) drop(rs->members, &rs->nmembers, i);
	for (size_t i = rs->ntags; i-- > 0;)
		if (rs->tags[i].c == c) drop(rs->tags, &rs->ntags, i);
	handle_drop(HANDLE_CAPTURE, HANDLE_KEY(c));
	free(c);
}

static void invalidate(Capture *c, const char *fn, const char *why)
{
	if (!c->invalid)
		rt_say("%s: %s; the capture begun on stream %p is invalidated "
		       "(cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated)",
		       fn, why, (void *)c->origin);
	c->invalid = 1;
}

static int legacy(cudaStream_t s) { return !s || s == cudaStreamLegacy; }

/* a member that the legacy stream synchronises with (not cudaStreamNonBlocking) */
static Capture *blocking_capture(void)
{
	RtState *rs = rt_state();
	for (size_t i = 0; i < rs->nmembers; i++) {
		unsigned flags = 0;
		if (rs->members[i].handle != cudaStreamPerThread)
			cudaStreamGetFlags((cudaStream_t)rs->members[i].handle, &flags);
		if (!(flags & cudaStreamNonBlocking)) return rs->members[i].c;
	}
	return NULL;
}

/* ---- what other files ask ------------------------------------------------------------------ */

cudaError_t capture_enqueue(cudaStream_t s, const char *fn, int *on)
{
	Member *m = member(s);
	*on = 0;
	if (m && m->c->invalid) return rt_err(cudaErrorStreamCaptureInvalidated);
	if (m) {
		*on = 1;
		return cudaSuccess;
	}
	Capture *c = legacy(s) ? blocking_capture() : NULL;
	if (c) {
		invalidate(c, fn, "work on the legacy default stream would wait for a capturing "
		           "stream (create it with cudaStreamNonBlocking, or use another stream)");
		return rt_err(cudaErrorStreamCaptureImplicit);
	}
	return cudaSuccess;
}

cudaError_t capture_unsafe(const char *fn)
{
	RtThread *th = rt_thread();
	if (th->capture_mode == cudaStreamCaptureModeRelaxed) return cudaSuccess;
	int refused = 0;
	Capture *c;
	for (size_t i = 0; (c = handle_next(HANDLE_CAPTURE, &i));)
		if (c->mode != cudaStreamCaptureModeRelaxed) {
			char why[160];
			snprintf(why, sizeof why, "not permitted while a stream captures in %s mode",
			         mode_name(c->mode));
			invalidate(c, fn, why);
			refused = 1;
		}
	return refused ? rt_err(cudaErrorStreamCaptureUnsupported) : cudaSuccess;
}

cudaError_t capture_sync_legacy(const char *fn)
{
	int on;
	cudaError_t e = capture_unsafe(fn);
	return e ? e : capture_enqueue(NULL, fn, &on);
}

cudaError_t capture_stream_sync(cudaStream_t s, const char *fn)
{
	Member *m = member(s);
	if (m) {
		invalidate(m->c, fn, "the stream is capturing: its work has not been launched");
		return rt_err(cudaErrorStreamCaptureUnsupported);
	}
	int on;
	return legacy(s) ? capture_enqueue(s, fn, &on) : cudaSuccess;
}

cudaError_t capture_event_check(cudaEvent_t ev)
{
	RtState *rs = rt_state();
	return lookup(rs->tags, rs->ntags, ev) ? rt_err(cudaErrorCapturedEvent) : cudaSuccess;
}

int capture_owns(cudaGraph_t g)
{
	const Capture *c;
	for (size_t i = 0; (c = handle_next(HANDLE_CAPTURE, &i));)
		if (c->graph == g) return 1;
	return 0;
}

cudaError_t capture_add(cudaStream_t s, enum cudaGraphNodeType type, const void *params)
{
	Member *m = member(s);
	assert(m && !m->c->invalid);
	cudaGraph_t g = m->c->graph;
	cudaGraphNode_t n = NULL, *d = m->deps.v;
	size_t nd = m->deps.n;
	cudaError_t e = cudaErrorInvalidValue;
	switch (type) {
	case cudaGraphNodeTypeKernel: e = cudaGraphAddKernelNode(&n, g, d, nd, params); break;
	case cudaGraphNodeTypeMemcpy: e = cudaGraphAddMemcpyNode(&n, g, d, nd, params); break;
	case cudaGraphNodeTypeMemset: e = cudaGraphAddMemsetNode(&n, g, d, nd, params); break;
	case cudaGraphNodeTypeHost: e = cudaGraphAddHostNode(&n, g, d, nd, params); break;
	case cudaGraphNodeTypeGraph: e = graph_add_exec(&n, g, d, nd, (cudaGraphExec_t)params); break;
	case cudaGraphNodeTypeEventRecord:
		e = cudaGraphAddEventRecordNode(&n, g, d, nd, (cudaEvent_t)params);
		break;
	default: assert(!"a node type capture does not make");
	}
	if (e) {
		invalidate(m->c, "stream capture", "a captured call failed");
		return e;
	}
	set_assign(&m->deps, &n, 1);
	return cudaSuccess;
}

cudaError_t capture_refuse(cudaStream_t s, const char *fn, const char *what)
{
	Member *m = member(s);
	rt_say("%s: %s cannot be captured by rfsim", fn, what);
	if (m) invalidate(m->c, fn, "refused");
	return rt_err(cudaErrorNotSupported);
}

int capture_record(cudaEvent_t ev, cudaStream_t s)
{
	RtState *rs = rt_state();
	Member *m = member(s);
	if (!m) return 0;
	Member *t = lookup(rs->tags, rs->ntags, ev);
	if (!t) {
		VEC_RESERVE(rs->tags, rs->captags, rs->ntags + 1);
		t = &rs->tags[rs->ntags++];
		*t = (Member){.handle = ev};
	}
	t->c = m->c;
	set_assign(&t->deps, m->deps.v, m->deps.n);
	return 1;
}

cudaError_t capture_wait(cudaStream_t s, cudaEvent_t ev)
{
	RtState *rs = rt_state();
	Member *t = lookup(rs->tags, rs->ntags, ev), *m = member(s);
	int on;
	if (!t || (m && m->c->invalid))  /* recorded outside any capture: done already */
		return capture_enqueue(s, "cudaStreamWaitEvent", &on);
	if (m && m->c != t->c) {
		rt_say("cudaStreamWaitEvent: the stream and the event belong to different captures");
		invalidate(m->c, "cudaStreamWaitEvent", "it would merge two captures");
		return rt_err(cudaErrorStreamCaptureMerge);
	}
	if (!m) {                         /* a fork: s joins the capture */
		VEC_RESERVE(rs->members, rs->capmembers, rs->nmembers + 1);
		m = &rs->members[rs->nmembers++];
		*m = (Member){.handle = s, .c = t->c};
	}
	for (size_t i = 0; i < t->deps.n; i++) set_add(&m->deps, t->deps.v[i]);
	return cudaSuccess;
}

static void end_capture(Capture *c)
{
	cudaGraph_t g = c->graph;
	leave(c);
	cudaGraphDestroy(g);
}

/* the capture that began on stream s, NULL if none */
static Capture *began_on(const void *s)
{
	Capture *c;
	for (size_t i = 0; (c = handle_next(HANDLE_CAPTURE, &i));)
		if (c->origin == s) return c;
	return NULL;
}

void capture_forget(const void *stream_or_event)
{
	RtState *rs = rt_state();
	Capture *c;
	while ((c = began_on(stream_or_event)))   /* its origin destroyed: it cannot end */
		end_capture(c);
	for (size_t i = rs->nmembers; i-- > 0;)
		if (rs->members[i].handle == stream_or_event) drop(rs->members, &rs->nmembers, i);
	for (size_t i = rs->ntags; i-- > 0;)
		if (rs->tags[i].handle == stream_or_event) drop(rs->tags, &rs->ntags, i);
}

void capture_reset(void)
{
	Capture *c;
	while ((c = handle_last(HANDLE_CAPTURE))) end_capture(c);
}

/* ---- the API --------------------------------------------------------------------------- */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
	RT_API();
	RtState *rs = rt_state();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	if ((unsigned)mode > cudaStreamCaptureModeRelaxed) return rt_err(cudaErrorInvalidValue);
	if (legacy(stream)) {
		rt_say("cudaStreamBeginCapture: the legacy default stream cannot be captured; "
		       "capture a stream of your own");
		return rt_err(cudaErrorStreamCaptureUnsupported);
	}
	if (member(stream)) return rt_err(cudaErrorIllegalState);
	Capture *c = xcalloc(1, sizeof *c);
	*c = (Capture){.origin = stream, .mode = mode, .id = rs->next_capture_id++};
	cudaGraphCreate(&c->graph, 0);
	handle_add(HANDLE_CAPTURE, HANDLE_KEY(c), c);
	VEC_RESERVE(rs->members, rs->capmembers, rs->nmembers + 1);
	rs->members[rs->nmembers++] = (Member){.handle = stream, .c = c};
	return cudaSuccess;
}

/* x is one of `set`, or an ancestor of one of them */
static int reaches(const NodeSet *set, cudaGraphNode_t x)
{
	NodeSet todo = {0}, seen = {0};
	int found = 0;
	set_assign(&todo, set->v, set->n);
	while (todo.n && !found) {
		cudaGraphNode_t n = todo.v[--todo.n];
		size_t before = seen.n;
		set_add(&seen, n);
		if (seen.n == before) continue;
		found = n == x;
		size_t nd = 0;
		cudaGraphNodeGetDependencies(n, NULL, NULL, &nd);
		cudaGraphNode_t *d = xcalloc(nd + 1, sizeof *d);
		cudaGraphNodeGetDependencies(n, d, NULL, &nd);
		for (size_t i = 0; i < nd; i++) set_add(&todo, d[i]);
		free(d);
	}
	free(todo.v);
	free(seen.v);
	return found;
}

/* every member other than the origin was joined back into it */
static int joined(const Capture *c, const Member *origin)
{
	RtState *rs = rt_state();
	for (size_t i = 0; i < rs->nmembers; i++) {
		if (rs->members[i].c != c || &rs->members[i] == origin) continue;
		for (size_t j = 0; j < rs->members[i].deps.n; j++)
			if (!reaches(&origin->deps, rs->members[i].deps.v[j])) return 0;
	}
	return 1;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	RT_API();
	if (!pGraph) return rt_err(cudaErrorInvalidValue);
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	Member *m = member(stream);
	if (!m) return rt_err(cudaErrorIllegalState);
	Capture *c = m->c;
	if (c->origin != stream) {
		invalidate(c, "cudaStreamEndCapture", "called on a stream the capture forked to, "
		           "not the one it began on");
		return rt_err(cudaErrorStreamCaptureUnmatched);
	}
	cudaError_t e = c->invalid ? cudaErrorStreamCaptureInvalidated
	              : !joined(c, m) ? cudaErrorStreamCaptureUnjoined : cudaSuccess;
	if (e == cudaErrorStreamCaptureUnjoined)
		rt_say("cudaStreamEndCapture: a stream forked from the capture's origin (by "
		       "cudaStreamWaitEvent) was not joined back (record an event on it and make "
		       "the origin wait for it)");
	cudaGraph_t g = c->graph;
	leave(c);
	*pGraph = e ? NULL : g;
	if (e) cudaGraphDestroy(g);
	return rt_err(e);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
	RT_API();
	if (!status) return rt_err(cudaErrorInvalidValue);
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	Member *m = member(stream);
	if (!m && legacy(stream) && blocking_capture())
		return rt_err(cudaErrorStreamCaptureImplicit);
	*status = !m ? cudaStreamCaptureStatusNone
	          : m->c->invalid ? cudaStreamCaptureStatusInvalidated
	          : cudaStreamCaptureStatusActive;
	return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
	RT_API();
	RtState *rs = rt_state();
	if (!captureStatus_out || (edgeData_out && !dependencies_out))
		return rt_err(cudaErrorInvalidValue);
	cudaError_t e = cudaStreamIsCapturing(stream, captureStatus_out);
	if (e) return e;
	Member *m = member(stream);
	if (*captureStatus_out != cudaStreamCaptureStatusActive) return cudaSuccess;
	if (id_out) *id_out = m->c->id;
	if (graph_out) *graph_out = m->c->graph;
	if (dependencies_out) *dependencies_out = m->deps.v;
	if (edgeData_out) {
		VEC_RESERVE(rs->zeros, rs->capzeros, m->deps.n + 1);
		memset(rs->zeros, 0, (m->deps.n + 1) * sizeof *rs->zeros);
		*edgeData_out = rs->zeros;
	}
	if (numDependencies_out) *numDependencies_out = m->deps.n;
	return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData,
                                                size_t numDependencies, unsigned int flags)
{
	RT_API();
	Member *m = member(stream);
	if (flags > 1 || (numDependencies && !dependencies)) return rt_err(cudaErrorInvalidValue);
	if (!m || m->c->invalid) return rt_err(cudaErrorIllegalState);
	if (flags == 1) m->deps.n = 0;     /* cudaStreamSetCaptureDependencies */
	for (size_t i = 0; i < numDependencies; i++) set_add(&m->deps, dependencies[i]);
	(void)dependencyData;
	return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
	RT_API();
	RtThread *th = rt_thread();
	if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
		return rt_err(cudaErrorInvalidValue);
	enum cudaStreamCaptureMode old = th->capture_mode;
	th->capture_mode = *mode;
	*mode = old;
	return cudaSuccess;
}
