/*
 * graphexec.c -- executable graphs: instantiating, launching and updating
 * them (graph.c builds the graphs).
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
 * Updating an executable graph (cudaGraphExec*NodeSetParams,
 * cudaGraphExecUpdate) changes its clone's parameters in place: nodes of
 * the original graph are found through the clone's `orig` (or `upd`, the
 * node an update last took them from); a whole-graph update pairs nodes
 * by creation order, as NVIDIA's does for graphs of the same topology (a
 * re-captured loop body, jacobiCudaGraphs' way), and refuses other
 * topologies with cudaErrorGraphExecUpdateFailure.
 *
 * Not implemented, and refused by name with cudaErrorNotSupported:
 * conditional nodes, memory allocation and free nodes, external
 * semaphores, device graph launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/graph.h"

static int exec_ok(const struct CUgraphExec_st *x)
{
	return x && handle_find(HANDLE_GRAPH_EXEC, HANDLE_KEY(x));
}

/* a graph launched into a capturing stream: a child-graph node (capture.c) */
cudaError_t graph_add_exec(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                           size_t ndeps, cudaGraphExec_t x)
{
	if (!exec_ok(x)) return rt_err(cudaErrorInvalidValue);
	return cudaGraphAddChildGraphNode(out, g, deps, ndeps, x->g);
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
	RT_API();
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
	handle_add(HANDLE_GRAPH_EXEC, HANDLE_KEY(x), x);
	*pGraphExec = x;
	return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags)
{
	RT_API();
	return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams)
{
	RT_API();
	cudaGraphInstantiateParams *p = instantiateParams;
	if (!p) return rt_err(cudaErrorInvalidValue);
	p->errNode_out = NULL;
	if ((p->flags & cudaGraphInstantiateFlagUpload) && !stream_valid(p->uploadStream))
		return rt_err(cudaErrorInvalidResourceHandle);
	cudaError_t e = cudaGraphInstantiate(pGraphExec, graph, p->flags);
	p->result_out = !e ? cudaGraphInstantiateSuccess
	                : e == cudaErrorNotSupported ? cudaGraphInstantiateNodeOperationNotSupported
	                : graph_ok(graph) && pGraphExec ? cudaGraphInstantiateInvalidStructure
	                : cudaGraphInstantiateError;
	return e;
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
	RT_API();
	if (!exec_ok(graphExec) || !flags) return rt_err(cudaErrorInvalidValue);
	*flags = graphExec->flags;
	return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	RT_API();
	if (!handle_drop(HANDLE_GRAPH_EXEC, HANDLE_KEY(graphExec)))
		return rt_err(cudaErrorInvalidValue);
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
		return launch_now(n->u.k.fn, n->u.k.grid, n->u.k.block, n->u.k.argp, n->u.k.shmem, 0,
		                  (dim3){0, 0, 0});
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
	RT_API();
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
	RT_API();
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
	RT_API();
	if (!exec_ok(hGraphExec) || !pNodeParams) return rt_err(cudaErrorInvalidValue);
	Node *n = exec_node(hGraphExec, node);
	if (!n || n->type != cudaGraphNodeTypeKernel) return rt_err(cudaErrorInvalidValue);
	return rt_err(graph_pack_kernel(n, pNodeParams));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
	RT_API();
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
	RT_API();
	struct cudaMemcpy3DParms p = graph_copy1d(dst, src, count, kind);
	return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
	RT_API();
	Node *n = exec_ok(hGraphExec) ? exec_node(hGraphExec, node) : NULL;
	if (!n || !graph_memset_ok(pNodeParams) || n->type != cudaGraphNodeTypeMemset)
		return rt_err(cudaErrorInvalidValue);
	n->u.set = *pNodeParams;
	return cudaSuccess;
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
	RT_API();
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
		graph_copy_params(a, from->nodes[i]);
		a->upd = from->nodes[i];
	}
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
	RT_API();
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
	RT_API();
	return refuse("cudaGraphAddMemAllocNode", "graph memory allocation nodes");
}

cudaError_t cudaGraphAddMemFreeNode(void);
cudaError_t cudaGraphAddMemFreeNode(void)
{
	RT_API();
	return refuse("cudaGraphAddMemFreeNode", "graph memory free nodes");
}

cudaError_t cudaGraphConditionalHandleCreate(void);
cudaError_t cudaGraphConditionalHandleCreate(void)
{
	RT_API();
	return refuse("cudaGraphConditionalHandleCreate", "conditional graph nodes");
}

cudaError_t cudaGraphAddExternalSemaphoresSignalNode(void);
cudaError_t cudaGraphAddExternalSemaphoresSignalNode(void)
{
	RT_API();
	return refuse("cudaGraphAddExternalSemaphoresSignalNode", "external semaphores");
}

cudaError_t cudaGraphAddExternalSemaphoresWaitNode(void);
cudaError_t cudaGraphAddExternalSemaphoresWaitNode(void)
{
	RT_API();
	return refuse("cudaGraphAddExternalSemaphoresWaitNode", "external semaphores");
}

/* the generic node API (cudaGraphNodeParams, the only way to make a
 * conditional node): its type says which feature is refused; the typed
 * cudaGraphAdd*Node calls make every node rfsim runs */
struct cudaGraphNodeParams { enum cudaGraphNodeType type; };   /* its first field */

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *nodeParams);
cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *nodeParams)
{
	RT_API();
	if (!nodeParams) return rt_err(cudaErrorInvalidValue);
	switch (nodeParams->type) {
	case cudaGraphNodeTypeConditional:
		return refuse("cudaGraphAddNode", "conditional graph nodes");
	case cudaGraphNodeTypeMemAlloc: case cudaGraphNodeTypeMemFree:
		return refuse("cudaGraphAddNode", "graph memory allocation and free nodes");
	case cudaGraphNodeTypeExtSemaphoreSignal: case cudaGraphNodeTypeExtSemaphoreWait:
		return refuse("cudaGraphAddNode", "external semaphores");
	default:
		rt_say("cudaGraphAddNode: the generic node parameters are not supported by rfsim; "
		       "make the node with cudaGraphAdd<Type>Node");
		return rt_err(cudaErrorNotSupported);
	}
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
	RT_API();
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
	cudaGraphExec_t x;
	while ((x = handle_last(HANDLE_GRAPH_EXEC))) cudaGraphExecDestroy(x);
	graph_free_all();
}
