/*
 * graph.h -- what graph.c (building graphs) and graphexec.c (instantiating,
 * launching and updating them) share: the objects behind cudaGraph_t,
 * cudaGraphNode_t and cudaGraphExec_t.
 */
#ifndef RFSIM_CUDART_GRAPH_H
#define RFSIM_CUDART_GRAPH_H

#include "cudart/rt.h"

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

int graph_ok(const Graph *g);            /* a live graph (every graph is listed) */
int graph_node_ok(const Node *n);        /* a node of a live graph */
Graph *graph_clone(const Graph *g, int keep_orig);   /* keep_orig: set each node's orig */
void graph_free(Graph *g);
void graph_free_all(void);
/* copy p's kernel and arguments into kernel node n (packed as its PTX lays them out) */
cudaError_t graph_pack_kernel(Node *n, const struct cudaKernelNodeParams *p);
void graph_copy_params(Node *to, const Node *from);  /* a deep copy of from's parameters */
int graph_memset_ok(const struct cudaMemsetParams *p);

#endif
