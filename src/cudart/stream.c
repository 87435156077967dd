/*
 * stream.c -- streams and events on a simulated clock.
 *
 * Every runtime call finishes its work before it returns (rt.h), so a
 * stream is only a handle: work issued to any stream has completed, in
 * issue order, by the time the next call starts.  Queries therefore
 * always answer "done", waits return at once, and host callbacks run
 * inside the call that enqueues them.  Streams and events are validated
 * (a destroyed handle gives cudaErrorInvalidResourceHandle), because
 * programs under test should see their own mistakes.
 *
 * Event timings are simulated time, never host time, so
 * cudaEventElapsedTime is deterministic and means what it means on a GPU:
 * the device time between two points of the program.  The clock is
 * stream_clock_ms(): the sum of the simulated durations of the kernels
 * launched so far (copies take no time).  A kernel's duration comes from
 * kernel_ms(), the one place that turns the simulator's per-kernel
 * statistics into time: the timing model's simulated cycles divided by
 * gpu.clock_mhz.  A kernel run functionally (RFSIM_SET="sim.mode=
 * functional") has no cycles; its time is then an estimate from the
 * instruction count: one warp instruction per SM per cycle, spread evenly
 * over sm.count SMs.
 */
#include <stdlib.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"

struct CUstream_st {
	unsigned flags;              /* cudaStreamNonBlocking: recorded, meaningless here */
	int priority;
	unsigned long long id;       /* cudaStreamGetId */
};

struct CUevent_st {
	unsigned flags;              /* cudaEventDisableTiming etc. */
	int recorded;                /* cudaEventRecord has been called */
	double t_ms;                 /* stream_clock_ms() when it was */
};


/* ---- the clock ---------------------------------------------------------------- */

/* simulated milliseconds one kernel took (see the essay) */
static double kernel_ms(const KernelStats *k, const Config *c)
{
	double cycles = k->timed ? (double)k->ts.cycles
	                         : (double)k->warp_insts / (double)c->sm_count;
	return cycles / (c->gpu_clock_mhz * 1e3);
}

double stream_clock_ms(void)
{
	RtState *rs = rt_state();
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	if (n < rs->clock_counted) rs->clock_counted = 0;   /* the log was cleared */
	for (; rs->clock_counted < n; rs->clock_counted++)
		rs->clock_ms += kernel_ms(&ks[rs->clock_counted], rt_config());
	return rs->clock_ms;
}

/* ---- streams ------------------------------------------------------------------ */

/* not one of the default streams' names (NULL, cudaStreamLegacy, cudaStreamPerThread) */
static int user_stream(cudaStream_t s) { return (uintptr_t)s > 2; }

int stream_valid(cudaStream_t s)
{
	return !s || s == cudaStreamLegacy || s == cudaStreamPerThread ||
	       handle_find(HANDLE_STREAM, HANDLE_KEY(s));
}

void stream_reset(void)
{
	handle_free_kind(HANDLE_STREAM);
	handle_free_kind(HANDLE_EVENT);
}

#define CHECK_STREAM(s) do { if (!stream_valid(s)) \
	return rt_err(cudaErrorInvalidResourceHandle); } while (0)

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
	RT_API();
	if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
		return rt_err(cudaErrorInvalidValue);
	cudaError_t e = rt_ready();
	if (e) return rt_err(e);
	struct CUstream_st *s = xcalloc(1, sizeof *s);
	*s = (struct CUstream_st){flags, 0, rt_state()->next_stream_id++};
	(void)priority;              /* one priority level (cudaDeviceGetStreamPriorityRange) */
	handle_add(HANDLE_STREAM, HANDLE_KEY(s), s);
	*pStream = s;
	return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	RT_API();
	return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	RT_API();
	return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	RT_API();
	if (!handle_find(HANDLE_STREAM, HANDLE_KEY(stream)))
		return rt_err(cudaErrorInvalidResourceHandle);
	capture_forget(stream);
	free(handle_drop(HANDLE_STREAM, HANDLE_KEY(stream)));
	return cudaSuccess;
}

static cudaError_t stream_sync(cudaStream_t stream, const char *fn)
{
	CHECK_STREAM(stream);
	cudaError_t e = capture_stream_sync(stream, fn);
	if (e) return e;
	e = rt_ready();
	return e ? rt_err(e) : cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	RT_API();
	return stream_sync(stream, "cudaStreamSynchronize");
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	RT_API();
	return stream_sync(stream, "cudaStreamQuery");
}

/* a wait on an event recorded in a capture forks or joins the capture (capture.c) */
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
	RT_API();
	CHECK_STREAM(stream);
	if (!stream_event_valid(event)) return rt_err(cudaErrorInvalidResourceHandle);
	if (flags & ~(unsigned)cudaEventWaitExternal) return rt_err(cudaErrorInvalidValue);
	return capture_wait(stream, event);
}

cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags)
{
	RT_API();
	CHECK_STREAM(s);
	if (!flags) return rt_err(cudaErrorInvalidValue);
	*flags = user_stream(s) ? s->flags : 0;
	return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
	RT_API();
	CHECK_STREAM(s);
	if (!priority) return rt_err(cudaErrorInvalidValue);
	*priority = 0;
	return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id)
{
	RT_API();
	CHECK_STREAM(s);
	if (!id) return rt_err(cudaErrorInvalidValue);
	*id = user_stream(s) ? s->id : (unsigned long long)(uintptr_t)s;
	return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t s, int *device)
{
	RT_API();
	CHECK_STREAM(s);
	if (!device) return rt_err(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *userData, unsigned int flags)
{
	RT_API();
	CHECK_STREAM(stream);
	if (!callback || flags) return rt_err(cudaErrorInvalidValue);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaStreamAddCallback", &on);
	if (e) return e;
	if (on)
		return capture_refuse(stream, "cudaStreamAddCallback", "stream callbacks (use "
		                      "cudaLaunchHostFunc, which is captured as a host node)");
	callback(stream, rt_ready(), userData);     /* the stream's work is done */
	return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	RT_API();
	CHECK_STREAM(stream);
	if (!fn) return rt_err(cudaErrorInvalidValue);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaLaunchHostFunc", &on);
	if (e) return e;
	if (on) {
		struct cudaHostNodeParams p = {fn, userData};
		return capture_add(stream, cudaGraphNodeTypeHost, &p);
	}
	fn(userData);
	return cudaSuccess;
}

/* ---- events ------------------------------------------------------------------- */

static struct CUevent_st *event(cudaEvent_t e)
{
	return handle_find(HANDLE_EVENT, HANDLE_KEY(e));
}

int stream_event_valid(cudaEvent_t ev) { return event(ev) != NULL; }

void stream_event_stamp(cudaEvent_t ev)
{
	ev->recorded = 1;
	ev->t_ms = stream_clock_ms();
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *pEvent, unsigned int flags)
{
	RT_API();
	if (!pEvent || (flags & ~0x7u)) return rt_err(cudaErrorInvalidValue);
	struct CUevent_st *e = xcalloc(1, sizeof *e);
	e->flags = flags;
	handle_add(HANDLE_EVENT, HANDLE_KEY(e), e);
	*pEvent = e;
	return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *pEvent)
{
	RT_API();
	return cudaEventCreateWithFlags(pEvent, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
	RT_API();
	if (!event(ev)) return rt_err(cudaErrorInvalidResourceHandle);
	capture_forget(ev);
	free(handle_drop(HANDLE_EVENT, HANDLE_KEY(ev)));
	return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t stream, unsigned int flags)
{
	RT_API();
	struct CUevent_st *e = event(ev);
	CHECK_STREAM(stream);
	if (!e) return rt_err(cudaErrorInvalidResourceHandle);
	if (flags & ~1u) return rt_err(cudaErrorInvalidValue);
	int on;
	cudaError_t err = capture_enqueue(stream, "cudaEventRecord", &on);
	if (err) return err;
	if (on && (flags & cudaEventRecordExternal))
		return capture_add(stream, cudaGraphNodeTypeEventRecord, ev);
	if (on) return capture_record(ev, stream), cudaSuccess;
	capture_forget(ev);          /* recorded anew outside any capture */
	stream_event_stamp(ev);
	return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t stream)
{
	RT_API();
	return cudaEventRecordWithFlags(ev, stream, 0);
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
	RT_API();
	return event(ev) ? capture_event_check(ev) : rt_err(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
	RT_API();
	return cudaEventQuery(ev);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	RT_API();
	struct CUevent_st *a = event(start), *b = event(end);
	if (!ms) return rt_err(cudaErrorInvalidValue);
	if (!a || !b) return rt_err(cudaErrorInvalidResourceHandle);
	if ((a->flags | b->flags) & cudaEventDisableTiming || !a->recorded || !b->recorded)
		return rt_err(cudaErrorInvalidResourceHandle);
	*ms = (float)(b->t_ms - a->t_ms);
	return cudaSuccess;
}
