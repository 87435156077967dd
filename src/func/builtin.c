/*
 * builtin.c -- the device-runtime functions nvcc calls but does not define:
 * vprintf (device printf) and __assertfail (a failed assert()).
 *
 * nvcc lowers printf("fmt", a, b) into `call vprintf, (fmt, args)`: fmt is
 * the generic address of the format string (a .global byte array), args
 * the generic address of a local buffer holding the arguments, each at its
 * natural alignment -- 4 bytes for int and char, 8 for long long, pointers
 * and double (float is promoted).  rfsim formats one line per active lane,
 * lanes in ascending order, warps in the order they execute, and writes it
 * to stdout at once; CUDA buffers device printf and flushes it at
 * synchronisation points, so only the interleaving between warps may
 * differ from a GPU.  vprintf returns the number of arguments, as CUDA's.
 *
 * __assertfail(message, file, line, function, charSize) prints CUDA's
 * message and stops the kernel like a trap (the runtime reports
 * cudaErrorAssert; rfsim run exits 1).
 *
 * malloc and free (device-side heap; C++ new and delete call them) take
 * their memory from the simulated device memory (devmem.h: a heap of
 * cudaLimitMallocHeapSize bytes, CUDA's default 8 MiB unless set; malloc
 * returns NULL beyond it, 16-byte aligned or better,
 * lasting across kernels until freed).  Lanes allocate in ascending order.
 * Freeing what malloc did not return stops the kernel with a fault report.
 *
 * __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2 are a
 * device-side kernel launch (dynamic parallelism): cdp.c records it, gpu.c
 * runs it after the launching grid.  A stream other than NULL,
 * cudaStreamTailLaunch or cudaStreamFireAndForget stops the kernel with a
 * report naming the feature.
 *
 * Every read goes through exec_addr(), so a bad pointer passed to printf
 * is reported like any other out-of-bounds access.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "func/cdp.h"
#include "func/exec_int.h"

enum { MAXSTR = 4096 };

static const struct { const char *name; int id; } builtins[] = {
	{"vprintf", BUILTIN_VPRINTF},
	{"__assertfail", BUILTIN_ASSERTFAIL},
	{"malloc", BUILTIN_MALLOC},
	{"free", BUILTIN_FREE},
	{"__cudaCDP2GetParameterBufferV2", BUILTIN_CDP_PARAMBUF},
	{"__cudaCDP2LaunchDeviceV2", BUILTIN_CDP_LAUNCH},
	{"__cudaCDP2LaunchDeviceV2_ptsz", BUILTIN_CDP_LAUNCH},   /* --default-stream per-thread */
};

int builtin_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (!strcmp(builtins[i].name, name)) return builtins[i].id;
	return BUILTIN_NONE;
}

/* a NUL-terminated device string at generic address a, into buf */
static int read_str(Cta *c, Warp *w, uint32_t l, const DIns *d, uint64_t a, char *buf)
{
	for (int i = 0; i < MAXSTR - 1; i++) {
		const uint8_t *p = exec_addr(c, w, l, d, XS_GENERIC, a + (uint64_t)i, 1, 0);
		if (!p) return RF_ERUNTIME;
		buf[i] = (char)*p;
		if (!*p) return RF_OK;
	}
	buf[MAXSTR - 1] = 0;
	return RF_OK;
}

/* the call's i-th argument (a .param in the caller's frame), n bytes */
static int arg(Cta *c, Warp *w, uint32_t l, const DIns *d, int i, int n, uint64_t *v)
{
	const CallInfo *ci = &c->L->img->calls[d->aux];
	*v = 0;
	if (i >= ci->nargs) return RF_OK;
	const uint8_t *p = exec_addr(c, w, l, d, XS_FRAME, (uint64_t)ci->arg_src[i],
	                             (uint32_t)(ci->arg_size[i] < n ? ci->arg_size[i] : n), 0);
	if (!p) return RF_ERUNTIME;
	memcpy(v, p, (size_t)(ci->arg_size[i] < n ? ci->arg_size[i] : n));
	return RF_OK;
}

/* the next argument of `size` bytes from the buffer at *a (aligned to size) */
static int next_arg(Cta *c, Warp *w, uint32_t l, const DIns *d, uint64_t *a, int size,
                    uint64_t *v)
{
	*a = (*a + (uint64_t)size - 1) & ~(uint64_t)(size - 1);
	const uint8_t *p = exec_addr(c, w, l, d, XS_GENERIC, *a, (uint32_t)size, 0);
	if (!p) return RF_ERUNTIME;
	*v = 0;
	memcpy(v, p, (size_t)size);
	*a += (uint64_t)size;
	return RF_OK;
}

/* format one conversion spec[0..n) (starting at '%') with its argument */
static int conv(Cta *c, Warp *w, uint32_t l, const DIns *d, const char *spec, size_t n,
                uint64_t *args, char *out, size_t cap, int *nargs)
{
	char f[64], s[MAXSTR];
	char k = spec[n - 1];
	int wide = strstr(spec, "l") && (size_t)(strstr(spec, "l") - spec) < n;
	wide |= (memchr(spec, 'z', n) || memchr(spec, 'j', n) || memchr(spec, 't', n)) != 0;
	uint64_t v;
	snprintf(f, sizeof f, "%.*s", (int)(n < 60 ? n : 60), spec);
	if (k == '%') return snprintf(out, cap, "%%");
	(*nargs)++;
	switch (k) {
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		double x;
		if (next_arg(c, w, l, d, args, 8, &v)) return -1;
		memcpy(&x, &v, 8);
		return snprintf(out, cap, f, x);
	}
	case 's':
		if (next_arg(c, w, l, d, args, 8, &v)) return -1;
		if (!v) return snprintf(out, cap, "(null)");
		if (read_str(c, w, l, d, v, s)) return -1;
		return snprintf(out, cap, f, s);
	case 'p':
		if (next_arg(c, w, l, d, args, 8, &v)) return -1;
		return snprintf(out, cap, "0x%llx", (unsigned long long)v);
	default:                                      /* d i u x X o c */
		if (next_arg(c, w, l, d, args, wide ? 8 : 4, &v)) return -1;
		if (!wide) v = (k == 'd' || k == 'i') ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
		/* print through long long whatever the length modifier said */
		char g[72];
		size_t m = 0;
		for (size_t i = 0; i < n - 1 && m < sizeof g - 4; i++)
			if (!strchr("hlLqjzt", spec[i])) g[m++] = spec[i];
		g[m++] = 'l', g[m++] = 'l', g[m++] = k, g[m] = 0;
		return snprintf(out, cap, g, (long long)v);
	}
}

static int do_vprintf(Cta *c, Warp *w, uint32_t l, const DIns *d, int32_t *ret)
{
	char fmt[MAXSTR], line[4 * MAXSTR];
	uint64_t fa, args;
	if (arg(c, w, l, d, 0, 8, &fa) || arg(c, w, l, d, 1, 8, &args)) return RF_ERUNTIME;
	if (read_str(c, w, l, d, fa, fmt)) return RF_ERUNTIME;
	size_t o = 0;
	int nargs = 0;
	for (const char *p = fmt; *p && o < sizeof line - 1;) {
		if (*p != '%') {
			line[o++] = *p++;
			continue;
		}
		size_t n = 1 + strspn(p + 1, "-+ #0123456789.*hlLqjzt");
		if (!p[n]) break;
		n++;
		int r = conv(c, w, l, d, p, n, &args, line + o, sizeof line - o, &nargs);
		if (r < 0) return RF_ERUNTIME;
		o += (size_t)r < sizeof line - o ? (size_t)r : sizeof line - o - 1;
		p += n;
	}
	fwrite(line, 1, o, stdout);
	*ret = nargs;
	return RF_OK;
}

static int do_assert(Cta *c, Warp *w, uint32_t l, const DIns *d)
{
	char msg[MAXSTR], file[MAXSTR], func[MAXSTR];
	uint64_t a0, a1, line, a3;
	if (arg(c, w, l, d, 0, 8, &a0) || arg(c, w, l, d, 1, 8, &a1) ||
	    arg(c, w, l, d, 2, 4, &line) || arg(c, w, l, d, 3, 8, &a3))
		return RF_ERUNTIME;
	if (read_str(c, w, l, d, a0, msg) || read_str(c, w, l, d, a1, file) ||
	    read_str(c, w, l, d, a3, func))
		return RF_ERUNTIME;
	uint32_t t[3];
	exec_thread_of(c->L, w, l, t);
	char what[3 * MAXSTR + 128];
	snprintf(what, sizeof what, "%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u] "
	         "Assertion `%s` failed.", file, (unsigned)line, func, c->id.x, c->id.y,
	         c->id.z, t[0], t[1], t[2], msg);
	exec_fault(c, w, l, d, FAULT_ASSERT, what);
	return RF_ERUNTIME;
}

/* device-side malloc (*ret: the pointer) and free */
static int do_heap(Cta *c, Warp *w, uint32_t l, const DIns *d, int64_t *ret)
{
	uint64_t a;
	if (arg(c, w, l, d, 0, 8, &a)) return RF_ERUNTIME;
	GMem *gm = c->L->gm;
	if (d->imm == BUILTIN_MALLOC) {
		uint64_t p;
		gmem_heap_alloc(gm, a, &p);
		*ret = (int64_t)p;
		return RF_OK;
	}
	if (gmem_heap_free(gm, a) == RF_OK) return RF_OK;
	char what[128];
	snprintf(what, sizeof what, "free(0x%llx): not a pointer device-side malloc returned "
	         "(or freed twice)", (unsigned long long)a);
	exec_fault(c, w, l, d, FAULT_ADDRESS, what);
	return RF_ERUNTIME;
}

/* a dim3 argument (12 bytes, passed by value) */
static int arg_dim3(Cta *c, Warp *w, uint32_t l, const DIns *d, int i, Dim3 *v)
{
	const CallInfo *ci = &c->L->img->calls[d->aux];
	*v = (Dim3){1, 1, 1};
	if (i >= ci->nargs || ci->arg_size[i] < 12) return RF_OK;
	uint32_t *f[3] = {&v->x, &v->y, &v->z};
	for (int j = 0; j < 3; j++) {           /* .align 4 .b8 [12]: three 4-byte reads */
		const uint8_t *p = exec_addr(c, w, l, d, XS_FRAME,
		                             (uint64_t)ci->arg_src[i] + 4u * (uint64_t)j, 4, 0);
		if (!p) return RF_ERUNTIME;
		memcpy(f[j], p, 4);
	}
	return RF_OK;
}

/* __cudaCDP2GetParameterBufferV2(func, grid, block, shmem) -> the buffer, and
 * __cudaCDP2LaunchDeviceV2(buffer, stream) -> a cudaError_t */
static int do_cdp(Cta *c, Warp *w, uint32_t l, const DIns *d, int64_t *ret)
{
	uint64_t a0, a1;
	if (d->imm == BUILTIN_CDP_PARAMBUF) {
		Dim3 grid, block;
		if (arg(c, w, l, d, 0, 8, &a0) || arg_dim3(c, w, l, d, 1, &grid) ||
		    arg_dim3(c, w, l, d, 2, &block) || arg(c, w, l, d, 3, 4, &a1))
			return RF_ERUNTIME;
		*ret = (int64_t)cdp_param_buffer(c->L->cdp, c->L->gm, a0, grid, block, (uint32_t)a1);
		return RF_OK;
	}
	if (arg(c, w, l, d, 0, 8, &a0) || arg(c, w, l, d, 1, 8, &a1)) return RF_ERUNTIME;
	if (a1 && a1 != CDP_STREAM_TAIL && a1 != CDP_STREAM_FIRE) {
		char what[160];
		snprintf(what, sizeof what, "device-side launch into stream 0x%llx: rfsim's dynamic "
		         "parallelism takes only NULL, cudaStreamTailLaunch and "
		         "cudaStreamFireAndForget", (unsigned long long)a1);
		exec_fault(c, w, l, d, FAULT_TRAP, what);
		return RF_ERUNTIME;
	}
	*ret = cdp_launch(c->L->cdp, a0, a1);
	return RF_OK;
}

int exec_builtin(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const CallInfo *ci = &c->L->img->calls[d->aux];
	StepTrace *tr = w->trace;
	w->trace = NULL;                     /* not memory traffic of the kernel */
	w->nwrites++;                        /* output, a return value: progress (livelock.c) */
	int rc = RF_OK;
	for (uint32_t m = act; m && rc == RF_OK; m &= m - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(m);
		int32_t ret = 0;
		int64_t ret64 = 0;
		switch (d->imm) {
		case BUILTIN_VPRINTF: rc = do_vprintf(c, w, l, d, &ret); ret64 = ret; break;
		case BUILTIN_MALLOC: case BUILTIN_FREE: rc = do_heap(c, w, l, d, &ret64); break;
		case BUILTIN_CDP_PARAMBUF: case BUILTIN_CDP_LAUNCH: rc = do_cdp(c, w, l, d, &ret64); break;
		default: rc = do_assert(c, w, l, d); break;
		}
		if (rc == RF_OK && ci->nrets) {       /* little-endian: the low bytes first */
			uint32_t n = ci->ret_size[0] < 8 ? (uint32_t)ci->ret_size[0] : 8;
			uint8_t *p = exec_addr(c, w, l, d, XS_FRAME, (uint64_t)ci->ret_dst[0], n, 1);
			if (!p) rc = RF_ERUNTIME;
			else memcpy(p, &ret64, n);
		}
	}
	if (d->imm == BUILTIN_VPRINTF) fflush(stdout);
	w->trace = tr;
	return rc;
}
