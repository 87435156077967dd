/*
 * runtime.c -- the runtime's state, start-up, configuration from the
 * environment, and the runtime's error state.
 *
 * The state (rt.h's RtState) is made on the first call that asks for it
 * (rt_state) and hangs from the driver layer's Runtime (api/state.h), so
 * the process has one structure of API state; a host thread's own state is
 * its RtThread.  The config is the driver layer's copy, set here once.
 *
 * Start-up is lazy, as in NVIDIA's runtime: the first call that needs the
 * device (rt_ready) reads the environment, builds the simulated GPU's
 * config, creates the primary context through the Driver API and loads the
 * program's registered modules.  The environment:
 *
 *   RFSIM_CONFIG  a config name (configs/NAME.cfg of the rfsim tree this
 *                 library was built in, then ./configs) or a path
 *   RFSIM_SET     overrides, "key=value" separated by ';' or newlines,
 *                 e.g. "sm.count=4;seed=3" (like rfsim's -s)
 *   RFSIM_STATS   write the statistics of every launch there at exit
 *                 (stats.c); RFSIM_QUIET=1 silences the per-kernel lines
 *
 * A bad config is the user's mistake: the message says so and every call
 * returns cudaErrorInitializationError, so the program stops at its first
 * error check.
 *
 * Errors.  A call's failure is also remembered as the last error
 * (rt_err); cudaGetLastError returns it and resets it to cudaSuccess,
 * cudaPeekAtLastError only returns it.  A kernel fault is sticky
 * (rt_set_sticky): the context is unusable, every later call returns the
 * fault, and only cudaDeviceReset clears it -- NVIDIA's behaviour, which
 * the driver layer also implements for its own calls.
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"

static _Thread_local RtThread this_thread;   /* the calling thread's (rt.h) */

RtThread *rt_thread(void) { return &this_thread; }

/* made under the lock, read without it once made: a thread that sees the
 * pointer set sees the state it points to (release, acquire) */
RtState *rt_state(void)
{
	Runtime *r = runtime();
	RtState *s = __atomic_load_n(&r->rt, __ATOMIC_ACQUIRE);
	if (s) return s;
	pthread_mutex_lock(&r->lock);
	if (!r->rt) {
		s = xcalloc(1, sizeof *s);
		s->next_stream_id = 3;
		s->next_capture_id = 1;
		__atomic_store_n(&r->rt, s, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&r->lock);
	return r->rt;
}

int rt_lock(void)
{
	pthread_mutex_lock(&runtime()->lock);
	return 1;
}

void rt_unlock(int *held)
{
	if (*held) pthread_mutex_unlock(&runtime()->lock);
}

/* ---- configuration --------------------------------------------------------- */

static int env_overrides(Config *c, const char *sets)
{
	char *copy = xstrdup(sets), *save = NULL;
	int rc = RF_OK;
	for (char *kv = strtok_r(copy, ";\n", &save); kv && !rc; kv = strtok_r(NULL, ";\n", &save)) {
		kv += strspn(kv, " \t");
		if (!*kv) continue;
		rc = config_set_kv(c, kv);
		if (rc) fprintf(stderr, "rfsim: RFSIM_SET: %s: %s\n", kv, err_msg());
	}
	free(copy);
	return rc;
}

static int env_config(Config *c)
{
	config_defaults(c);
	const char *name = getenv("RFSIM_CONFIG");
	if (name && *name) {
		char named[256];                 /* "NAME.cfg" that is no file here: NAME */
		size_t n = strlen(name);
		int bare = !strchr(name, '/') && n > 4 && n < sizeof named &&
		           !strcmp(name + n - 4, ".cfg") && access(name, R_OK);
		snprintf(named, sizeof named, "%.*s", bare ? (int)n - 4 : 0, name);
		if (config_load(c, bare ? named : name)) {
			fprintf(stderr, "rfsim: RFSIM_CONFIG=%s: %s\n", name, err_msg());
			return RF_EINPUT;
		}
	}
	const char *sets = getenv("RFSIM_SET");
	return sets ? env_overrides(c, sets) : RF_OK;
}

/* read the environment's config once; a bad one disables the runtime */
static void configure(void)
{
	RtState *s = rt_state();
	if (s->configured) return;
	s->configured = 1;
	Config *c = xmalloc(sizeof *c);
	if (env_config(c)) {
		fprintf(stderr, "rfsim: the CUDA runtime cannot start: fix the configuration\n");
		s->init_error = cudaErrorInitializationError;
	}
	api_set_config(c);
	free(c);
}

/* the driver's copy: the one config of the process */
const Config *rt_config(void)
{
	configure();
	return &runtime()->cfg;
}

int rt_quiet(void)
{
	const char *q = getenv("RFSIM_QUIET");
	return q && *q && strcmp(q, "0");
}

/* ---- start-up and reset ------------------------------------------------------ */

cudaError_t rt_ready(void)
{
	configure();
	RtState *s = rt_state();
	if (s->init_error) return s->init_error;
	if (s->sticky) return s->sticky;
	if (!s->ctx) {
		CUresult r = cuInit(0);
		if (!r) r = cuCtxCreate(&s->ctx, NULL, 0, 0);
		if (r) {
			s->ctx = NULL;
			return rt_from_cu(r);
		}
	}
	reg_load_all();              /* cheap when nothing new was registered */
	return cudaSuccess;
}

void rt_set_sticky(cudaError_t e) { rt_state()->sticky = rt_thread()->last_error = e; }

void rt_reset(void)
{
	capture_reset();
	graph_reset();
	mem_reset();
	array_reset();
	texture_reset();
	stream_reset();
	reg_unload_all();
	RtState *s = rt_state();
	if (s->ctx) cuCtxDestroy(s->ctx);
	s->ctx = NULL;
	s->sticky = rt_thread()->last_error = cudaSuccess;
}

/* ---- errors ------------------------------------------------------------------ */

cudaError_t rt_err(cudaError_t e)
{
	if (e != cudaSuccess && !rt_state()->sticky) rt_thread()->last_error = e;
	return e;
}

cudaError_t cudaGetLastError(void)
{
	RT_API();
	cudaError_t e = rt_state()->sticky ? rt_state()->sticky : rt_thread()->last_error;
	rt_thread()->last_error = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	RT_API();
	return rt_state()->sticky ? rt_state()->sticky : rt_thread()->last_error;
}

const char *cudaGetErrorName(cudaError_t error)
{
	RT_API();
	switch (error) {
#define X(name, value, desc) case name: return #name;
#include "cudart/rterrors.def"
#undef X
	}
	return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
	RT_API();
	switch (error) {
#define X(name, value, desc) case name: return desc;
#include "cudart/rterrors.def"
#undef X
	}
	return "unrecognized error code";
}

cudaError_t rt_from_cu(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS: return cudaSuccess;
	case CUDA_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
	case CUDA_ERROR_NOT_INITIALIZED: return cudaErrorInitializationError;
	case CUDA_ERROR_INVALID_CONTEXT: return cudaErrorDeviceUninitialized;
	case CUDA_ERROR_INVALID_HANDLE: return cudaErrorInvalidResourceHandle;
	case CUDA_ERROR_NOT_FOUND: return cudaErrorSymbolNotFound;
	case CUDA_ERROR_INVALID_IMAGE: return cudaErrorInvalidKernelImage;
	case CUDA_ERROR_LAUNCH_FAILED: return cudaErrorLaunchFailure;
	case CUDA_ERROR_NO_BINARY_FOR_GPU: return cudaErrorNoKernelImageForDevice;
	default: break;
	}
	switch ((int)r) {            /* the codes both APIs number alike */
#define X(name, value, desc) case value: return name;
#include "cudart/rterrors.def"
#undef X
	}
	return cudaErrorUnknown;
}

void rt_say(const char *fmt, ...)
{
	RtState *s = rt_state();
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < s->nsaid; i++)
		if (!strcmp(s->said[i], line)) return;
	if (s->nsaid < 256) {        /* beyond that, say everything rather than grow */
		VEC_RESERVE(s->said, s->capsaid, s->nsaid + 1);
		s->said[s->nsaid++] = xstrdup(line);
	}
	fprintf(stderr, "rfsim: %s\n", line);
}

int rt_unsupported(const char *fn)
{
	RT_API();
	rt_say("%s is not supported by rfsim's CUDA runtime (returning cudaErrorNotSupported)", fn);
	return rt_err(cudaErrorNotSupported);
}
