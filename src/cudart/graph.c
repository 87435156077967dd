/*
 * graph.c -- CUDA graphs: building them node by node, instantiating,
 * launching and updating them.
 *
 * A graph (cudaGraph_t) is a list of nodes in creation order, each with
 * the nodes it depends on.  A node owns a copy of everything it needs to
 * run: a kernel node packs its arguments into a buffer laid out as the
 * kernel's PTX parameter list says when the node is made (NVIDIA copies
 * them then too, so the program may reuse its argument variables), a
 * child-graph node owns a clone of the graph it was given.  Stream capture
 * (capture.c) builds graphs through the same functions.
 *
 * cudaGraphInstantiate clones the graph into the executable graph and fixes
 * its order: Kahn's topological sort, taking among the nodes whose
 * dependencies have all run the one created first, so a launch always runs
 * the same order.  Every runtime call runs to completion (rt.h), and a
 * graph launch is no exception: the nodes run one after another, inside
 * cudaGraphLaunch, which is a legal schedule of any graph, and since the
 * launch itself runs in its stream's order, so do its nodes.  Kernels go
 * through the same launch path as <<< >>> (launch.c), so each shows up in
 * the per-kernel lines and statistics like any launch.  A graph launched
 * into a capturing stream becomes a child-graph node of the capture.
 *
 * Updating an executable graph (cudaGraphExecKernelNodeSetParams,
 * cudaGraphExecUpdate) changes its clone's parameters in place: nodes of
 * the original graph are found through the clone's `orig`; a whole-graph
 * update pairs nodes by creation order, as NVIDIA's does for graphs of the
 * same topology (a re-captured loop body), and refuses other topologies.
 *
 * Not implemented, and refused by name: conditional nodes, memory
 * allocation and free nodes, external semaphores, device graph launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "rt.h"

struct CUgraphNode_st {
	struct CUgraph_st *graph;        /* the graph it belongs to */
	enum cudaGraphNodeType type;
	size_t seq;                      /* its position in the graph's creation order */
	struct CUgraphNode_st **deps;    /* the nodes it depends on */
	size_t ndeps, capdeps;
	struct CUgraphNode_st *orig;     /* in an executable graph: the node it was cloned from */
	struct CUgraphNode_st *upd;      /* ... and the one cudaGraphExecUpdate last applied */
	union {
		struct {                     /* Kernel */
			RtFunc *fn;
			dim3 grid, block;
			unsigned shmem;
			uint8_t *buf;            /* the arguments, packed as the PTX lays them out */
			void **argp;             /* nargs pointers into buf */
			int nargs;
		} k;
		struct cudaMemcpy3DParms copy;   /* Memcpy (1D copies as one-row 3D ones) */
		struct cudaMemsetParams set;     /* Memset */
		struct cudaHostNodeParams host;  /* Host */
		struct CUgraph_st *child;        /* Graph: owned clone */
		cudaEvent_t event;               /* EventRecord, WaitEvent */
	} u;
};

struct CUgraph_st {
	struct CUgraphNode_st **nodes;   /* in creation order */
	size_t n, cap;
};

struct CUgraphExec_st {
	struct CUgraph_st *g;            /* the instantiated clone */
	struct CUgraphNode_st **order;   /* g's nodes in launch order */
	unsigned long long flags;
};

typedef struct CUgraphNode_st Node;
typedef struct CUgraph_st Graph;

static Graph **graphs;               /* live graphs the program owns, to validate handles */
static size_t ngraphs, capgraphs;
static struct CUgraphExec_st **execs;
static size_t nexecs, capexecs;

static size_t find(void **list, size_t n, const void *p)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == p) return i;
	return n;
}

static int graph_ok(const Graph *g) { return g && find((void **)graphs, ngraphs, g) < ngraphs; }
static int exec_ok(const struct CUgraphExec_st *x)
{
	return x && find((void **)execs, nexecs, x) < nexecs;
}

/* a node of a live graph (the program's, or one being captured) */
static int node_ok(const Node *n)
{
	for (size_t i = 0; n && i < ngraphs; i++)
		if (find((void **)graphs[i]->nodes, graphs[i]->n, n) < graphs[i]->n) return 1;
	return 0;
}

/* every graph is listed, also the clones inside child-graph nodes and
 * executable graphs, so that their nodes are valid handles too */
static Graph *graph_new(void)
{
	Graph *g = xcalloc(1, sizeof *g);
	VEC_RESERVE(graphs, capgraphs, ngraphs + 1);
	graphs[ngraphs++] = g;
	return g;
}

static void graph_free(Graph *g);

static void node_free(Node *n)
{
	if (n->type == cudaGraphNodeTypeKernel) {
		free(n->u.k.buf);
		free(n->u.k.argp);
	}
	if (n->type == cudaGraphNodeTypeGraph) graph_free(n->u.child);
	free(n->deps);
	free(n);
}

static void graph_free(Graph *g)
{
	size_t i = find((void **)graphs, ngraphs, g);
	if (i < ngraphs) graphs[i] = graphs[--ngraphs];
	for (size_t j = 0; j < g->n; j++) node_free(g->nodes[j]);
	free(g->nodes);
	free(g);
}

/* ---- kernel arguments ------------------------------------------------------------- */

/* copy the arguments of p into n as the kernel's PTX parameter list lays them out */
static cudaError_t pack_kernel(Node *n, const struct cudaKernelNodeParams *p)
{
	cudaError_t e = rt_ready();
	if (e) return e;
	RtFunc *fn = reg_func(p->func);
	if (!fn) return cudaErrorInvalidDeviceFunction;
	if ((e = reg_module_status(fn->mod))) return e;
	KernelAttr a;
	if (!fn->f || api_func_params(fn->f, &a)) return cudaErrorInvalidDeviceFunction;
	if ((p->kernelParams && p->extra) || (!p->kernelParams && !p->extra && a.nparam))
		return cudaErrorInvalidValue;
	uint8_t *buf = xcalloc(a.param_bytes + 1, 1);
	void **argp = xcalloc((size_t)a.nparam + 1, sizeof *argp);
	const uint8_t *packed = NULL;     /* the extra form: one buffer already laid out */
	for (int i = 0; p->extra && p->extra[i] != CU_LAUNCH_PARAM_END; i += 2)
		if (p->extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) packed = p->extra[i + 1];
	for (int i = 0; i < a.nparam; i++) {
		const void *src = p->kernelParams ? p->kernelParams[i]
		                  : packed ? packed + a.params[i].offset : NULL;
		if (!src) {
			free(buf);
			free(argp);
			return cudaErrorInvalidValue;
		}
		memcpy(buf + a.params[i].offset, src, a.params[i].size);
		argp[i] = buf + a.params[i].offset;
	}
	if (n->type == cudaGraphNodeTypeKernel) {
		free(n->u.k.buf);
		free(n->u.k.argp);
	}
	n->u.k.fn = fn;
	n->u.k.grid = p->gridDim;
	n->u.k.block = p->blockDim;
	n->u.k.shmem = p->sharedMemBytes;
	n->u.k.buf = buf;
	n->u.k.argp = argp;
	n->u.k.nargs = a.nparam;
	return cudaSuccess;
}

/* ---- nodes ---------------------------------------------------------------------------- */

static void add_dep(Node *n, Node *d)
{
	for (size_t i = 0; i < n->ndeps; i++)
		if (n->deps[i] == d) return;
	VEC_RESERVE(n->deps, n->capdeps, n->ndeps + 1);
	n->deps[n->ndeps++] = d;
}

static Node *node_append(Graph *g, enum cudaGraphNodeType type)
{
	Node *n = xcalloc(1, sizeof *n);
	n->graph = g;
	n->type = type;
	n->seq = g->n;
	VEC_RESERVE(g->nodes, g->cap, g->n + 1);
	g->nodes[g->n++] = n;
	return n;
}

/* the checks every cudaGraphAdd*Node makes: a live graph, dependencies in it */
static cudaError_t add_check(cudaGraphNode_t *out, Graph *g, const cudaGraphNode_t *deps,
                             size_t ndeps)
{
	if (!out || !graph_ok(g) || (ndeps && !deps)) return cudaErrorInvalidValue;
	for (size_t i = 0; i < ndeps; i++)
		if (!deps[i] || deps[i]->graph != g) return cudaErrorInvalidValue;
	return cudaSuccess;
}

/* a new node of g after deps; the caller fills in its parameters */
static Node *add_node(Graph *g, enum cudaGraphNodeType type, const cudaGraphNode_t *deps,
                      size_t ndeps)
{
	Node *n = node_append(g, type);
	for (size_t i = 0; i < ndeps; i++) add_dep(n, deps[i]);
	return n;
}

/* the last node was a mistake: take it out again */
static void drop_last(Graph *g)
{
	Node *n = g->nodes[--g->n];
	n->type = cudaGraphNodeTypeEmpty;
	node_free(n);
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
	if (!pGraph || flags) return rt_err(cudaErrorInvalidValue);
	*pGraph = graph_new();
	return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	if (!graph_ok(graph)) return rt_err(cudaErrorInvalidValue);
	if (capture_owns(graph)) {
		rt_say("cudaGraphDestroy: the graph is being captured into; end the capture first");
		return rt_err(cudaErrorIllegalState);
	}
	graph_free(graph);
	return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !pNodeParams) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeEmpty, pDependencies, numDependencies);
	if ((e = pack_kernel(n, pNodeParams))) {
		drop_last(graph);
		return rt_err(e);
	}
	n->type = cudaGraphNodeTypeKernel;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeKernel)
		return rt_err(cudaErrorInvalidValue);
	*p = (struct cudaKernelNodeParams){(void *)node->u.k.fn->host, node->u.k.grid,
	                                   node->u.k.block, node->u.k.shmem, node->u.k.argp, NULL};
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeKernel)
		return rt_err(cudaErrorInvalidValue);
	return rt_err(pack_kernel(node, p));
}

/* a 1D copy as the 3D copy NVIDIA makes of it: one row of count bytes */
struct cudaMemcpy3DParms graph_copy1d(void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p;
	memset(&p, 0, sizeof p);
	p.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
	p.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
	p.extent = (struct cudaExtent){count, 1, 1};
	p.kind = kind;
	return p;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !pCopyParams || (unsigned)pCopyParams->kind > cudaMemcpyDefault)
		return rt_err(e ? e : cudaErrorInvalidValue);
	if (pCopyParams->srcArray || pCopyParams->dstArray) {
		rt_say("cudaGraphAddMemcpyNode: CUDA arrays (cudaArray_t) are not supported by rfsim");
		return rt_err(cudaErrorNotSupported);
	}
	Node *n = add_node(graph, cudaGraphNodeTypeMemcpy, pDependencies, numDependencies);
	n->u.copy = *pCopyParams;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, void *dst, const void *src,
                                     size_t count, enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = graph_copy1d(dst, src, count, kind);
	return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeMemcpy)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.copy;
	return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeMemcpy)
		return rt_err(cudaErrorInvalidValue);
	node->u.copy = *p;
	return cudaSuccess;
}

static int memset_ok(const struct cudaMemsetParams *p)
{
	return p && p->dst && (p->elementSize == 1 || p->elementSize == 2 || p->elementSize == 4) &&
	       p->height && (p->height == 1 || p->pitch >= p->width * p->elementSize);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !memset_ok(pMemsetParams)) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeMemset, pDependencies, numDependencies);
	n->u.set = *pMemsetParams;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.set;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
	if (!node_ok(node) || !memset_ok(p) || node->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	node->u.set = *p;
	return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !pNodeParams || !pNodeParams->fn) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeHost, pDependencies, numDependencies);
	n->u.host = *pNodeParams;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
	if (!node_ok(node) || !p || node->type != cudaGraphNodeTypeHost)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.host;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
	if (!node_ok(node) || !p || !p->fn || node->type != cudaGraphNodeTypeHost)
		return rt_err(cudaErrorInvalidValue);
	node->u.host = *p;
	return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e) return rt_err(e);
	*pGraphNode = add_node(graph, cudaGraphNodeTypeEmpty, pDependencies, numDependencies);
	return cudaSuccess;
}

static cudaError_t add_event_node(cudaGraphNode_t *out, Graph *g, const cudaGraphNode_t *deps,
                                  size_t ndeps, cudaEvent_t ev, enum cudaGraphNodeType type)
{
	cudaError_t e = add_check(out, g, deps, ndeps);
	if (e) return rt_err(e);
	if (!stream_event_valid(ev)) return rt_err(cudaErrorInvalidResourceHandle);
	Node *n = add_node(g, type, deps, ndeps);
	n->u.event = ev;
	*out = n;
	return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event)
{
	return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
	                      cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies, cudaEvent_t event)
{
	return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
	                      cudaGraphNodeTypeWaitEvent);
}

static Graph *graph_clone(const Graph *g, int keep_orig);

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph)
{
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !graph_ok(childGraph) || childGraph == graph)
		return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeGraph, pDependencies, numDependencies);
	n->u.child = graph_clone(childGraph, 0);
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
	if (!node_ok(node) || !pGraph || node->type != cudaGraphNodeTypeGraph)
		return rt_err(cudaErrorInvalidValue);
	*pGraph = node->u.child;
	return cudaSuccess;
}

/* a graph launched into a capturing stream: a child-graph node (capture.c) */
cudaError_t graph_add_exec(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                           size_t ndeps, cudaGraphExec_t x)
{
	cudaError_t e = add_check(out, g, deps, ndeps);
	if (e || !exec_ok(x)) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(g, cudaGraphNodeTypeGraph, deps, ndeps);
	n->u.child = graph_clone(x->g, 0);
	*out = n;
	return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies)
{
	if (!graph_ok(graph) || (numDependencies && (!from || !to)))
		return rt_err(cudaErrorInvalidValue);
	for (size_t i = 0; i < numDependencies; i++) {
		if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph ||
		    from[i] == to[i])
			return rt_err(cudaErrorInvalidValue);
		static const cudaGraphEdgeData zero;
		if (edgeData && memcmp(&edgeData[i], &zero, sizeof zero)) {
			rt_say("cudaGraphAddDependencies: edges with ports or programmatic types are not "
			       "supported by rfsim");
			return rt_err(cudaErrorNotSupported);
		}
	}
	for (size_t i = 0; i < numDependencies; i++) add_dep(to[i], from[i]);
	return cudaSuccess;
}

/* ---- queries ------------------------------------------------------------------------- */

/* NVIDIA's list convention: with out NULL, *n is how many there are; else up
 * to *n of them are written (the rest of out NULL) and *n is the count */
static void list_out(Node **all, size_t count, cudaGraphNode_t *out, size_t *n)
{
	if (out) {
		for (size_t i = 0; i < *n; i++) out[i] = i < count ? all[i] : NULL;
		if (count < *n) *n = count;
		return;
	}
	*n = count;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
	if (!graph_ok(graph) || !numNodes) return rt_err(cudaErrorInvalidValue);
	list_out(graph->nodes, graph->n, nodes, numNodes);
	return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
	if (!graph_ok(graph) || !pNumRootNodes) return rt_err(cudaErrorInvalidValue);
	Node **roots = xcalloc(graph->n + 1, sizeof *roots);
	size_t nroots = 0;
	for (size_t i = 0; i < graph->n; i++)
		if (!graph->nodes[i]->ndeps) roots[nroots++] = graph->nodes[i];
	list_out(roots, nroots, pRootNodes, pNumRootNodes);
	free(roots);
	return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
	if (!node_ok(node) || !pType) return rt_err(cudaErrorInvalidValue);
	*pType = node->type;
	return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
	if (!node_ok(node) || !pNumDependencies) return rt_err(cudaErrorInvalidValue);
	if (edgeData && pDependencies)
		memset(edgeData, 0, *pNumDependencies * sizeof *edgeData);
	list_out(node->deps, node->ndeps, pDependencies, pNumDependencies);
	return cudaSuccess;
}

/* ---- cloning and instantiation ---------------------------------------------------------- */

static void node_copy_params(Node *to, const Node *from)
{
	to->type = from->type;
	to->u = from->u;
	if (from->type == cudaGraphNodeTypeKernel) {
		KernelAttr a;
		api_func_params(from->u.k.fn->f, &a);
		to->u.k.buf = xcalloc(a.param_bytes + 1, 1);
		memcpy(to->u.k.buf, from->u.k.buf, a.param_bytes);
		to->u.k.argp = xcalloc((size_t)from->u.k.nargs + 1, sizeof *to->u.k.argp);
		for (int i = 0; i < from->u.k.nargs; i++)
			to->u.k.argp[i] = to->u.k.buf + ((uint8_t *)from->u.k.argp[i] - from->u.k.buf);
	}
	if (from->type == cudaGraphNodeTypeGraph) to->u.child = graph_clone(from->u.child, 0);
}

/* a deep copy of g; keep_orig: each node remembers the node it copies */
static Graph *graph_clone(const Graph *g, int keep_orig)
{
	Graph *c = graph_new();
	for (size_t i = 0; i < g->n; i++) {
		const Node *from = g->nodes[i];
		Node *n = node_append(c, cudaGraphNodeTypeEmpty);
		node_copy_params(n, from);
		for (size_t d = 0; d < from->ndeps; d++) add_dep(n, c->nodes[from->deps[d]->seq]);
		if (keep_orig) n->orig = n->upd = (Node *)from;
	}
	return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
	if (!pGraphClone || !graph_ok(originalGraph)) return rt_err(cudaErrorInvalidValue);
	*pGraphClone = graph_clone(originalGraph, 0);
	return cudaSuccess;
}

/* g's nodes in launch order (Kahn, earliest-created ready node first) into
 * order; 0, or -1 if g has a cycle */
static int topo_order(const Graph *g, Node **order)
{
	size_t *left = xcalloc(g->n + 1, sizeof *left);   /* dependencies not yet placed */
	char *done = xcalloc(g->n + 1, 1);
	for (size_t i = 0; i < g->n; i++) left[i] = g->nodes[i]->ndeps;
	size_t placed = 0;
	while (placed < g->n) {
		size_t i = 0;
		while (i < g->n && (done[i] || left[i])) i++;
		if (i == g->n) break;                          /* a cycle */
		done[i] = 1;
		order[placed++] = g->nodes[i];
		for (size_t j = 0; j < g->n; j++)
			for (size_t d = 0; d < g->nodes[j]->ndeps; d++)
				if (g->nodes[j]->deps[d] == g->nodes[i]) left[j]--;
	}
	free(left);
	free(done);
	return placed == g->n ? 0 : -1;
}

/* every graph nested in g is acyclic */
static int acyclic(const Graph *g)
{
	Node **order = xcalloc(g->n + 1, sizeof *order);
	int ok = !topo_order(g, order);
	free(order);
	for (size_t i = 0; ok && i < g->n; i++)
		if (g->nodes[i]->type == cudaGraphNodeTypeGraph) ok = acyclic(g->nodes[i]->u.child);
	return ok;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags)
{
	if (!pGraphExec || !graph_ok(graph) || (flags & ~0xfull)) return rt_err(cudaErrorInvalidValue);
	if (flags & cudaGraphInstantiateFlagDeviceLaunch) {
		rt_say("cudaGraphInstantiate: device graph launch (cudaGraphInstantiateFlagDeviceLaunch)"
		       " is not supported by rfsim");
		return rt_err(cudaErrorNotSupported);
	}
	if (!acyclic(graph)) {
		rt_say("cudaGraphInstantiate: the graph's dependencies form a cycle");
		return rt_err(cudaErrorInvalidValue);
	}
	struct CUgraphExec_st *x = xcalloc(1, sizeof *x);
	x->g = graph_clone(graph, 1);
	x->order = xcalloc(x->g->n + 1, sizeof *x->order);
	topo_order(x->g, x->order);
	x->flags = flags;
	VEC_RESERVE(execs, capexecs, nexecs + 1);
	execs[nexecs++] = x;
	*pGraphExec = x;
	return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags)
{
	return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
	if (!exec_ok(graphExec) || !flags) return rt_err(cudaErrorInvalidValue);
	*flags = graphExec->flags;
	return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	size_t i = find((void **)execs, nexecs, graphExec);
	if (i == nexecs) return rt_err(cudaErrorInvalidValue);
	execs[i] = execs[--nexecs];
	graph_free(graphExec->g);
	free(graphExec->order);
	free(graphExec);
	return cudaSuccess;
}

/* ---- launch --------------------------------------------------------------------------- */

static cudaError_t run_memset(const struct cudaMemsetParams *p)
{
	size_t row = p->width * p->elementSize;
	for (size_t y = 0; y < p->height; y++) {
		uint8_t *d = mem_view((uint8_t *)p->dst + y * p->pitch, row, MEM_DEV);
		if (!d) {
			rt_say("graph memset node: %p + %zu rows is not device memory of that size",
			       p->dst, p->height);
			return cudaErrorInvalidValue;
		}
		for (size_t i = 0; i < p->width; i++) memcpy(d + i * p->elementSize, &p->value,
		                                             p->elementSize);
	}
	return cudaSuccess;
}

static cudaError_t run_graph(const Graph *g);

static cudaError_t run_node(const Node *n)
{
	switch (n->type) {
	case cudaGraphNodeTypeKernel:
		return launch_now(n->u.k.fn, n->u.k.grid, n->u.k.block, n->u.k.argp, n->u.k.shmem, 0);
	case cudaGraphNodeTypeMemcpy: return pitched_copy3d(&n->u.copy, "graph memcpy node");
	case cudaGraphNodeTypeMemset: return run_memset(&n->u.set);
	case cudaGraphNodeTypeHost: n->u.host.fn(n->u.host.userData); return cudaSuccess;
	case cudaGraphNodeTypeGraph: return run_graph(n->u.child);
	case cudaGraphNodeTypeEventRecord: stream_event_stamp(n->u.event); return cudaSuccess;
	case cudaGraphNodeTypeEmpty: case cudaGraphNodeTypeWaitEvent: return cudaSuccess;
	case cudaGraphNodeTypeExtSemaphoreSignal: case cudaGraphNodeTypeExtSemaphoreWait:
	case cudaGraphNodeTypeMemAlloc: case cudaGraphNodeTypeMemFree:
	case cudaGraphNodeTypeConditional: break;
	}
	return cudaErrorNotSupported;    /* never made: their Add calls are refused */
}

static cudaError_t run_order(Node **order, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cudaError_t e = run_node(order[i]);
		if (e) return e;
	}
	return cudaSuccess;
}

static cudaError_t run_graph(const Graph *g)
{
	Node **order = xcalloc(g->n + 1, sizeof *order);
	topo_order(g, order);
	cudaError_t e = run_order(order, g->n);
	free(order);
	return e;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	if (!exec_ok(graphExec)) return rt_err(cudaErrorInvalidValue);
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaGraphLaunch", &on);
	if (e) return e;
	if (on) return capture_add(stream, cudaGraphNodeTypeGraph, graphExec);
	if ((e = rt_ready())) return rt_err(e);
	return rt_err(run_order(graphExec->order, graphExec->g->n));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	if (!exec_ok(graphExec)) return rt_err(cudaErrorInvalidValue);
	return stream_valid(stream) ? cudaSuccess : rt_err(cudaErrorInvalidResourceHandle);
}

/* ---- updating an executable graph ------------------------------------------------------ */

/* the node of x's clone made from (or last updated from) node */
static Node *exec_node(cudaGraphExec_t x, cudaGraphNode_t node)
{
	for (size_t i = 0; node && i < x->g->n; i++)
		if (x->g->nodes[i]->orig == node || x->g->nodes[i]->upd == node) return x->g->nodes[i];
	return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
	if (!exec_ok(hGraphExec) || !pNodeParams) return rt_err(cudaErrorInvalidValue);
	Node *n = exec_node(hGraphExec, node);
	if (!n || n->type != cudaGraphNodeTypeKernel) return rt_err(cudaErrorInvalidValue);
	return rt_err(pack_kernel(n, pNodeParams));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
	Node *n = exec_ok(hGraphExec) ? exec_node(hGraphExec, node) : NULL;
	if (!n || !pNodeParams || n->type != cudaGraphNodeTypeMemcpy)
		return rt_err(cudaErrorInvalidValue);
	n->u.copy = *pNodeParams;
	return cudaSuccess;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = graph_copy1d(dst, src, count, kind);
	return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
	Node *n = exec_ok(hGraphExec) ? exec_node(hGraphExec, node) : NULL;
	if (!n || !memset_ok(pNodeParams) || n->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	n->u.set = *pNodeParams;
	return cudaSuccess;
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
	Node *n = exec_ok(hGraphExec) ? exec_node(hGraphExec, node) : NULL;
	if (!n || !pNodeParams || !pNodeParams->fn || n->type != cudaGraphNodeTypeHost)
		return rt_err(cudaErrorInvalidValue);
	n->u.host = *pNodeParams;
	return cudaSuccess;
}

/* why `to` cannot take `from`'s parameters in place (node by node, in creation
 * order), or cudaGraphExecUpdateSuccess; *bad: the node of `from` at fault */
static enum cudaGraphExecUpdateResult same_shape(const Graph *to, const Graph *from, Node **bad)
{
	if (to->n != from->n) {
		*bad = NULL;
		return cudaGraphExecUpdateErrorTopologyChanged;
	}
	for (size_t i = 0; i < to->n; i++) {
		const Node *a = to->nodes[i];
		Node *b = from->nodes[i];
		*bad = b;
		if (a->type != b->type) return cudaGraphExecUpdateErrorNodeTypeChanged;
		if (a->ndeps != b->ndeps) return cudaGraphExecUpdateErrorTopologyChanged;
		for (size_t d = 0; d < a->ndeps; d++)
			if (a->deps[d]->seq != b->deps[d]->seq) return cudaGraphExecUpdateErrorTopologyChanged;
		if (a->type == cudaGraphNodeTypeGraph) {
			Node *inner;
			enum cudaGraphExecUpdateResult r = same_shape(a->u.child, b->u.child, &inner);
			if (r) return r;
		}
	}
	return cudaGraphExecUpdateSuccess;
}

static void update_params(Graph *to, const Graph *from)
{
	for (size_t i = 0; i < to->n; i++) {
		Node *a = to->nodes[i];
		if (a->type == cudaGraphNodeTypeKernel) {
			free(a->u.k.buf);
			free(a->u.k.argp);
		}
		if (a->type == cudaGraphNodeTypeGraph) {
			update_params(a->u.child, from->nodes[i]->u.child);
			continue;
		}
		node_copy_params(a, from->nodes[i]);
		a->upd = from->nodes[i];
	}
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
	if (!exec_ok(hGraphExec) || !graph_ok(hGraph)) return rt_err(cudaErrorInvalidValue);
	Node *bad = NULL;
	enum cudaGraphExecUpdateResult r = same_shape(hGraphExec->g, hGraph, &bad);
	if (resultInfo) *resultInfo = (cudaGraphExecUpdateResultInfo){r, r ? bad : NULL, NULL};
	if (r) {
		rt_say("cudaGraphExecUpdate: the new graph's %s differs from the instantiated one's; "
		       "rfsim updates graphs of the same topology only",
		       r == cudaGraphExecUpdateErrorNodeTypeChanged ? "node types" : "topology");
		return rt_err(cudaErrorGraphExecUpdateFailure);
	}
	update_params(hGraphExec->g, hGraph);
	return cudaSuccess;
}

/* ---- refused: what rfsim's graphs do not implement -------------------------------------- */

static cudaError_t refuse(const char *fn, const char *what)
{
	rt_say("%s: %s are not supported by rfsim", fn, what);
	return rt_err(cudaErrorNotSupported);
}

cudaError_t cudaGraphAddMemAllocNode(void);
cudaError_t cudaGraphAddMemAllocNode(void)
{
	return refuse("cudaGraphAddMemAllocNode", "graph memory allocation nodes");
}

cudaError_t cudaGraphAddMemFreeNode(void);
cudaError_t cudaGraphAddMemFreeNode(void)
{
	return refuse("cudaGraphAddMemFreeNode", "graph memory free nodes");
}

cudaError_t cudaGraphConditionalHandleCreate(void);
cudaError_t cudaGraphConditionalHandleCreate(void)
{
	return refuse("cudaGraphConditionalHandleCreate", "conditional graph nodes");
}

cudaError_t cudaGraphAddExternalSemaphoresSignalNode(void);
cudaError_t cudaGraphAddExternalSemaphoresSignalNode(void)
{
	return refuse("cudaGraphAddExternalSemaphoresSignalNode", "external semaphores");
}

cudaError_t cudaGraphAddExternalSemaphoresWaitNode(void);
cudaError_t cudaGraphAddExternalSemaphoresWaitNode(void)
{
	return refuse("cudaGraphAddExternalSemaphoresWaitNode", "external semaphores");
}

/* ---- a picture ---------------------------------------------------------------------------- */

static const char *type_name(enum cudaGraphNodeType t)
{
	switch (t) {
	case cudaGraphNodeTypeKernel: return "kernel";
	case cudaGraphNodeTypeMemcpy: return "memcpy";
	case cudaGraphNodeTypeMemset: return "memset";
	case cudaGraphNodeTypeHost: return "host";
	case cudaGraphNodeTypeGraph: return "graph";
	case cudaGraphNodeTypeEmpty: return "empty";
	case cudaGraphNodeTypeWaitEvent: return "event wait";
	case cudaGraphNodeTypeEventRecord: return "event record";
	case cudaGraphNodeTypeExtSemaphoreSignal: case cudaGraphNodeTypeExtSemaphoreWait:
	case cudaGraphNodeTypeMemAlloc: case cudaGraphNodeTypeMemFree:
	case cudaGraphNodeTypeConditional: break;
	}
	return "?";
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
	if (!graph_ok(graph) || !path) return rt_err(cudaErrorInvalidValue);
	FILE *f = fopen(path, "w");
	if (!f) return rt_err(cudaErrorOperatingSystem);
	fprintf(f, "digraph rfsim_graph {\n");
	for (size_t i = 0; i < graph->n; i++) {
		const Node *n = graph->nodes[i];
		fprintf(f, "  n%zu [label=\"%zu: %s%s%s\"];\n", i, i, type_name(n->type),
		        n->type == cudaGraphNodeTypeKernel ? " " : "",
		        n->type == cudaGraphNodeTypeKernel ? n->u.k.fn->name : "");
		for (size_t d = 0; d < n->ndeps; d++) fprintf(f, "  n%zu -> n%zu;\n", n->deps[d]->seq, i);
	}
	fprintf(f, "}\n");
	(void)flags;
	return fclose(f) ? rt_err(cudaErrorOperatingSystem) : cudaSuccess;
}

void graph_reset(void)
{
	while (nexecs) cudaGraphExecDestroy(execs[nexecs - 1]);
	while (ngraphs) graph_free(graphs[ngraphs - 1]);
}
