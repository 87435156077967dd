/*
 * state.h -- the one structure that holds the state of rfsim's CUDA API
 * layers, and the one registry of the handles they give out.
 *
 * A CUDA program sees a process-wide device: whatever it created with one
 * call it may name in any later call, from any host thread.  rfsim keeps
 * all of that in one Runtime, reached through runtime(): the driver API's
 * part (driver.c: the config, the current context, the kernel log, the
 * last launch's fault), the lock that libcudart's calls take, the handle
 * registry, and libcudart's own part (src/cudart/rt.h's RtState), which
 * this layer cannot see -- libcudart sits above it -- and so holds by an
 * opaque pointer that libcudart fills on its first call.  The rfsim binary
 * runs the built-in workloads through the driver API alone; there that
 * pointer stays NULL.  The Runtime is the library's one mutable global.
 * What is per host thread (libcudart's last error, its launch
 * configurations, a thread's capture mode) stays per thread, in
 * libcudart's one _Thread_local structure (rt.h's RtThread).
 *
 * The registry.  Every handle the API layers give out -- a module, a
 * stream, an event, a graph, an executable graph, a CUDA array, a memory
 * pool, a texture or surface object, a capture -- is entered in it under
 * its kind when it is made and taken out when it is destroyed, so a call
 * that is given a handle asks one question, "is this a live handle of
 * this kind?" (handle_find), and answers "no" with the error NVIDIA's
 * libraries give (CUDA_ERROR_INVALID_HANDLE, cudaErrorInvalidResourceHandle).
 * An entry's key is the handle as the program holds it (the object's
 * address, or a texture object's number); its object is what the layer
 * keeps for it.  Entries stay in the order they were made, which is the
 * order the layers walk them.  Handles number in the tens, so a search is
 * a linear scan, as each kind's own list was before.
 *
 * Locking.  libcudart holds runtime()->lock for the whole of every call
 * (rt.h's RT_API), so its state and the registry are touched by one
 * thread at a time.  The driver API (the built-in workloads' host code,
 * single-threaded) takes no lock, as NVIDIA's does not promise more.
 */
#ifndef RFSIM_API_STATE_H
#define RFSIM_API_STATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "sim/gpu.h"

typedef enum HandleKind {
	HANDLE_MODULE,           /* CUmodule (driver.c) */
	HANDLE_STREAM,           /* cudaStream_t (stream.c) */
	HANDLE_EVENT,            /* cudaEvent_t (stream.c) */
	HANDLE_GRAPH,            /* cudaGraph_t (graph.c) */
	HANDLE_GRAPH_EXEC,       /* cudaGraphExec_t (graphexec.c) */
	HANDLE_CAPTURE,          /* a stream capture in progress (capture.c) */
	HANDLE_ARRAY,            /* cudaArray_t (array.c) */
	HANDLE_MEMPOOL,          /* cudaMemPool_t the program created (mempool.c) */
	HANDLE_TEXTURE,          /* cudaTextureObject_t (texture.c) */
	HANDLE_SURFACE,          /* cudaSurfaceObject_t (texture.c) */
} HandleKind;

typedef struct Handle {
	HandleKind kind;
	uint64_t key;            /* the handle the program holds: an address, or a number */
	void *obj;               /* what the layer keeps for it */
} Handle;

typedef struct Registry {
	Handle *h;               /* live handles, in the order they were made */
	size_t nh, caph;
} Registry;

struct RtState;              /* libcudart's part (src/cudart/rt.h) */

typedef struct Runtime {
	pthread_mutex_t lock;    /* held by every libcudart call (recursive) */
	Registry reg;            /* every live handle */
	/* the driver API (driver.c) */
	Config cfg;              /* the config contexts' GPUs are built from */
	int cfg_set;             /* cfg holds a config (else the defaults are put there) */
	int init;                /* cuInit was called */
	struct CUctx_st *cur;    /* the current context, NULL if none */
	KernelStats *log;        /* every kernel launched since the last clear */
	int nlog, caplog;
	int fault;               /* FAULT_* of the last launch (gpu_last_fault), kept past
	                            its context's destruction for api_last_fault */
	struct RtState *rt;      /* libcudart's part, NULL until its first call */
} Runtime;

Runtime *runtime(void);      /* the process's one Runtime */

/* enter a live handle (key) of a kind, with the object it stands for */
void handle_add(HandleKind kind, uint64_t key, void *obj);
/* the object of live handle key of that kind, NULL if there is none */
void *handle_find(HandleKind kind, uint64_t key);
/* take handle key of that kind out: its object, NULL if it was not live */
void *handle_drop(HandleKind kind, uint64_t key);
/* the objects of one kind, in the order made: start *i at 0; NULL after the last.
 * A walk that drops the handle it was just given steps *i back by one. */
void *handle_next(HandleKind kind, size_t *i);
/* the object of the newest live handle of a kind, NULL if there is none */
void *handle_last(HandleKind kind);
/* take every handle of a kind out (their objects are the caller's to free) */
void handle_drop_kind(HandleKind kind);
/* take every handle of a kind out and free() its object (objects made by malloc
 * that own nothing more) */
void handle_free_kind(HandleKind kind);

/* a handle that is an address, as a key */
#define HANDLE_KEY(p) ((uint64_t)(uintptr_t)(p))

#endif
