/*
 * cudart_graph.h -- cudart.h's graphs and stream capture (graph.c,
 * capture.c): CUDA 13's types, layouts and prototypes, as the rest of
 * cudart.h (its opening comment says what that promises).  Included by
 * cudart.h only, after the types it uses.
 */
#ifndef RFSIM_CUDART_CUDART_GRAPH_H
#define RFSIM_CUDART_CUDART_GRAPH_H

/* ---- types ---- */

typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0,
                               cudaStreamCaptureStatusActive = 1,
                               cudaStreamCaptureStatusInvalidated = 2 };

enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0,   /* unsafe calls refused */
                             cudaStreamCaptureModeThreadLocal = 1,
                             cudaStreamCaptureModeRelaxed = 2 };

enum cudaGraphNodeType {
	cudaGraphNodeTypeKernel = 0x00, cudaGraphNodeTypeMemcpy = 0x01,
	cudaGraphNodeTypeMemset = 0x02, cudaGraphNodeTypeHost = 0x03,
	cudaGraphNodeTypeGraph = 0x04, cudaGraphNodeTypeEmpty = 0x05,
	cudaGraphNodeTypeWaitEvent = 0x06, cudaGraphNodeTypeEventRecord = 0x07,
	cudaGraphNodeTypeExtSemaphoreSignal = 0x08, cudaGraphNodeTypeExtSemaphoreWait = 0x09,
	cudaGraphNodeTypeMemAlloc = 0x0a, cudaGraphNodeTypeMemFree = 0x0b,
	cudaGraphNodeTypeConditional = 0x0d
};

enum cudaGraphExecUpdateResult {
	cudaGraphExecUpdateSuccess = 0x0, cudaGraphExecUpdateError = 0x1,
	cudaGraphExecUpdateErrorTopologyChanged = 0x2, cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
	cudaGraphExecUpdateErrorFunctionChanged = 0x4,
	cudaGraphExecUpdateErrorParametersChanged = 0x5, cudaGraphExecUpdateErrorNotSupported = 0x6,
	cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
	cudaGraphExecUpdateErrorAttributesChanged = 0x8
};

typedef struct cudaGraphExecUpdateResultInfo_st {
	enum cudaGraphExecUpdateResult result;
	cudaGraphNode_t errorNode;      /* the node of the new graph that could not be applied */
	cudaGraphNode_t errorFromNode;  /* with TopologyChanged: the dependency that differs */
} cudaGraphExecUpdateResultInfo;

typedef struct cudaGraphEdgeData_st {   /* only all-zero (full dependency) edges exist here */
	unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;

#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1
#define cudaGraphInstantiateFlagUpload           2
#define cudaGraphInstantiateFlagDeviceLaunch     4   /* device graph launch: refused */
#define cudaGraphInstantiateFlagUseNodePriority  8
#define cudaEventRecordExternal    0x01
#define cudaEventWaitExternal      0x01

typedef enum cudaGraphInstantiateResult {
	cudaGraphInstantiateSuccess = 0, cudaGraphInstantiateError = 1,
	cudaGraphInstantiateInvalidStructure = 2, cudaGraphInstantiateNodeOperationNotSupported = 3,
	cudaGraphInstantiateMultipleDevicesNotSupported = 4,
	cudaGraphInstantiateConditionalHandleUnused = 5
} cudaGraphInstantiateResult;

typedef struct cudaGraphInstantiateParams_st {
	unsigned long long flags;
	cudaStream_t uploadStream;      /* with cudaGraphInstantiateFlagUpload */
	cudaGraphNode_t errNode_out;
	cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

struct cudaKernelNodeParams {
	void *func;                     /* the kernel's host stub (or cudaKernel_t) */
	dim3 gridDim, blockDim;
	unsigned int sharedMemBytes;    /* dynamic shared memory */
	void **kernelParams;            /* one pointer per argument, or */
	void **extra;                   /* the driver's CU_LAUNCH_PARAM_* buffer */
};

struct cudaMemsetParams {
	void *dst;
	size_t pitch;                   /* bytes between rows (height > 1) */
	unsigned int value;
	unsigned int elementSize;       /* 1, 2 or 4 */
	size_t width;                   /* elements per row */
	size_t height;                  /* rows */
};

struct cudaHostNodeParams {
	cudaHostFn_t fn;
	void *userData;
};

/* ---- functions ---- */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags);
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo);
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out,
                                     const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData,
                                                size_t numDependencies, unsigned int flags);
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);

#endif
