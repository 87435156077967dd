/*
 * graph.c -- CUDA graphs: building them node by node (cudaGraphAdd*Node,
 * dependencies, parameters, queries, clones).  graphexec.c instantiates,
 * launches and updates them; capture.c builds them from streams.
 *
 * A graph (cudaGraph_t) is a list of nodes in creation order, each with
 * the nodes it depends on.  A node owns a copy of everything it needs to
 * run: a kernel node packs its arguments into a buffer laid out as the
 * kernel's PTX parameter list says when the node is made (NVIDIA copies
 * them then too, so the program may reuse its argument variables), a
 * child-graph node owns a clone of the graph it was given, a 1D memcpy
 * node is the one-row 3D copy NVIDIA makes of it.  Every graph, also the
 * clones inside nodes and executable graphs, is in the handle registry
 * (api/state.h), so that handles can be checked: a call on a destroyed
 * graph or node is an invalid value, not a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/graph.h"

static size_t find(void **list, size_t n, const void *p)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == p) return i;
	return n;
}

int graph_ok(const Graph *g) { return g && handle_find(HANDLE_GRAPH, HANDLE_KEY(g)); }

/* a node of a live graph (the program's, or one being captured) */
int graph_node_ok(const Node *n)
{
	const Graph *g;
	for (size_t i = 0; n && (g = handle_next(HANDLE_GRAPH, &i));)
		if (find((void **)g->nodes, g->n, n) < g->n) return 1;
	return 0;
}

/* every graph is a live handle, also the clones inside child-graph nodes and
 * executable graphs, so that their nodes are valid handles too */
static Graph *graph_new(void)
{
	Graph *g = xcalloc(1, sizeof *g);
	handle_add(HANDLE_GRAPH, HANDLE_KEY(g), g);
	return g;
}


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

void graph_free(Graph *g)
{
	handle_drop(HANDLE_GRAPH, HANDLE_KEY(g));
	for (size_t j = 0; j < g->n; j++) node_free(g->nodes[j]);
	free(g->nodes);
	free(g);
}

/* ---- kernel arguments ------------------------------------------------------------- */

/* copy the arguments of p into n as the kernel's PTX parameter list lays them out */
cudaError_t graph_pack_kernel(Node *n, const struct cudaKernelNodeParams *p)
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
	RT_API();
	if (!pGraph || flags) return rt_err(cudaErrorInvalidValue);
	*pGraph = graph_new();
	return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	RT_API();
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
	RT_API();
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !pNodeParams) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeEmpty, pDependencies, numDependencies);
	if ((e = graph_pack_kernel(n, pNodeParams))) {
		drop_last(graph);
		return rt_err(e);
	}
	n->type = cudaGraphNodeTypeKernel;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeKernel)
		return rt_err(cudaErrorInvalidValue);
	*p = (struct cudaKernelNodeParams){(void *)node->u.k.fn->host, node->u.k.grid,
	                                   node->u.k.block, node->u.k.shmem, node->u.k.argp, NULL};
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeKernel)
		return rt_err(cudaErrorInvalidValue);
	return rt_err(graph_pack_kernel(node, p));
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
	RT_API();
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
	RT_API();
	struct cudaMemcpy3DParms p = graph_copy1d(dst, src, count, kind);
	return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeMemcpy)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.copy;
	return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeMemcpy)
		return rt_err(cudaErrorInvalidValue);
	node->u.copy = *p;
	return cudaSuccess;
}

int graph_memset_ok(const struct cudaMemsetParams *p)
{
	return p && p->dst && (p->elementSize == 1 || p->elementSize == 2 || p->elementSize == 4) &&
	       p->height && (p->height == 1 || p->pitch >= p->width * p->elementSize);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
	RT_API();
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !graph_memset_ok(pMemsetParams)) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeMemset, pDependencies, numDependencies);
	n->u.set = *pMemsetParams;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.set;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !graph_memset_ok(p) || node->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	node->u.set = *p;
	return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
	RT_API();
	cudaError_t e = add_check(pGraphNode, graph, pDependencies, numDependencies);
	if (e || !pNodeParams || !pNodeParams->fn) return rt_err(e ? e : cudaErrorInvalidValue);
	Node *n = add_node(graph, cudaGraphNodeTypeHost, pDependencies, numDependencies);
	n->u.host = *pNodeParams;
	*pGraphNode = n;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || node->type != cudaGraphNodeTypeHost)
		return rt_err(cudaErrorInvalidValue);
	*p = node->u.host;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
	RT_API();
	if (!graph_node_ok(node) || !p || !p->fn || node->type != cudaGraphNodeTypeHost)
		return rt_err(cudaErrorInvalidValue);
	node->u.host = *p;
	return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
	RT_API();
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
	RT_API();
	return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
	                      cudaGraphNodeTypeEventRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies, cudaEvent_t event)
{
	RT_API();
	return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event,
	                      cudaGraphNodeTypeWaitEvent);
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph)
{
	RT_API();
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
	RT_API();
	if (!graph_node_ok(node) || !pGraph || node->type != cudaGraphNodeTypeGraph)
		return rt_err(cudaErrorInvalidValue);
	*pGraph = node->u.child;
	return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies)
{
	RT_API();
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
	RT_API();
	if (!graph_ok(graph) || !numNodes) return rt_err(cudaErrorInvalidValue);
	list_out(graph->nodes, graph->n, nodes, numNodes);
	return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
	RT_API();
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
	RT_API();
	if (!graph_node_ok(node) || !pType) return rt_err(cudaErrorInvalidValue);
	*pType = node->type;
	return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
	RT_API();
	if (!graph_node_ok(node) || !pNumDependencies) return rt_err(cudaErrorInvalidValue);
	if (edgeData && pDependencies)
		memset(edgeData, 0, *pNumDependencies * sizeof *edgeData);
	list_out(node->deps, node->ndeps, pDependencies, pNumDependencies);
	return cudaSuccess;
}

/* ---- cloning and instantiation ---------------------------------------------------------- */

void graph_copy_params(Node *to, const Node *from)
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
Graph *graph_clone(const Graph *g, int keep_orig)
{
	Graph *c = graph_new();
	for (size_t i = 0; i < g->n; i++) {
		Node *n = node_append(c, cudaGraphNodeTypeEmpty);
		graph_copy_params(n, g->nodes[i]);
		if (keep_orig) n->orig = n->upd = g->nodes[i];
	}
	/* then the edges: cudaGraphAddDependencies may make a node depend on a later one */
	for (size_t i = 0; i < g->n; i++)
		for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
			add_dep(c->nodes[i], c->nodes[g->nodes[i]->deps[d]->seq]);
	return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
	RT_API();
	if (!pGraphClone || !graph_ok(originalGraph)) return rt_err(cudaErrorInvalidValue);
	*pGraphClone = graph_clone(originalGraph, 0);
	return cudaSuccess;
}

void graph_free_all(void)
{
	Graph *g;
	while ((g = handle_last(HANDLE_GRAPH))) graph_free(g);
}
