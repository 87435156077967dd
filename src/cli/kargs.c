/*
 * kargs.c -- kernel arguments of `rfsim run FILE.ptx`, from -a specs.
 *
 * Each -a fills the kernel's next parameter:
 *
 *   TYPE:VALUE              a scalar: u8..u64, s8..s64, b8..b64, f32, f64.
 *                           Integers are decimal or 0x hex and must fit the
 *                           type (b types take signed or unsigned values);
 *                           the type's size must equal the parameter's.
 *   buf:TYPE:COUNT:INIT     a device buffer of COUNT elements of TYPE; the
 *                           parameter gets its address (so it must be 8
 *                           bytes, a .u64 pointer).  INIT is
 *                             zero      all zero bytes
 *                             iota      element i = i, in TYPE (integers wrap)
 *                             rand      uniform [0,1) for f32/f64, all bits
 *                                       random for integers
 *                             file=PATH raw little-endian bytes, at most the
 *                                       buffer's size; the rest is zero
 *
 * rand draws from splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014) seeded with the config
 * key `seed` (-s seed=N, default 1): one stream for the whole command, one
 * draw per element, buffers filled in argument order.  An integer element
 * takes the draw's low bits; an f64 its top 53 bits times 2^-53; an f32
 * its top 24 bits times 2^-24.  So the same command line always gives the
 * same inputs, and a script can reproduce them.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "cli/cli.h"

#define MAX_COUNT (1ull << 40)   /* elements in one buffer */

typedef struct SType {
	const char *name;
	char kind;               /* 'u' unsigned, 's' signed, 'b' bits, 'f' float */
	int bytes;
} SType;

static const SType stypes[] = {
	{"u8", 'u', 1}, {"u16", 'u', 2}, {"u32", 'u', 4}, {"u64", 'u', 8},
	{"s8", 's', 1}, {"s16", 's', 2}, {"s32", 's', 4}, {"s64", 's', 8},
	{"b8", 'b', 1}, {"b16", 'b', 2}, {"b32", 'b', 4}, {"b64", 'b', 8},
	{"f32", 'f', 4}, {"f64", 'f', 8},
};

static const SType *find_type(const char *s)
{
	for (size_t i = 0; i < sizeof stypes / sizeof stypes[0]; i++)
		if (!strcmp(stypes[i].name, s)) return &stypes[i];
	return NULL;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* a scalar of type t from text v into out (little-endian); -1 if bad */
static int parse_scalar(const SType *t, const char *v, uint8_t out[8])
{
	if (t->kind == 'f') {
		char *end;
		errno = 0;
		double d = strtod(v, &end);
		if (!*v || *end || (errno == ERANGE && (d > 1 || d < -1))) return -1;
		uint64_t bits;
		if (t->bytes == 4) {
			float f = (float)d;
			if (isinf(f) && !isinf(d)) return -1;
			uint32_t b32;
			memcpy(&b32, &f, 4);
			bits = b32;
		} else {
			memcpy(&bits, &d, 8);
		}
		put_le(out, bits, t->bytes);
		return 0;
	}
	int neg = v[0] == '-';
	uint64_t mag;
	if ((neg && t->kind == 'u') || parse_u64(v + neg, &mag)) return -1;
	int bits = 8 * t->bytes;
	uint64_t umax = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	uint64_t smax = umax >> 1;                   /* largest positive signed */
	if (neg ? mag > smax + 1 : mag > (t->kind == 's' ? smax : umax)) return -1;
	put_le(out, neg ? 0 - mag : mag, t->bytes);
	return 0;
}

static int fill_buffer(uint8_t *p, const SType *t, uint64_t count, const char *init,
                       uint64_t *rng, const char *spec)
{
	uint64_t bytes = count * t->bytes;
	if (!strcmp(init, "zero")) {
		memset(p, 0, bytes);
	} else if (!strcmp(init, "iota") || !strcmp(init, "rand")) {
		int rnd = init[0] == 'r';
		for (uint64_t i = 0; i < count; i++) {
			uint64_t bits = rnd ? splitmix64(rng) : i;
			if (t->kind == 'f' && t->bytes == 4) {
				float f = rnd ? (float)(bits >> 40) * 0x1p-24f : (float)i;
				uint32_t b;
				memcpy(&b, &f, 4);
				bits = b;
			} else if (t->kind == 'f') {
				double d = rnd ? (double)(bits >> 11) * 0x1p-53 : (double)i;
				memcpy(&bits, &d, 8);
			}
			put_le(p + i * t->bytes, bits, t->bytes);
		}
	} else if (!strncmp(init, "file=", 5)) {
		size_t len;
		char *data = read_file_max(init + 5, (size_t)bytes, "the buffer's size", &len);
		if (!data) return fail(RF_EINPUT, "-a %s: %s", spec, err_msg());
		memcpy(p, data, len);
		memset(p + len, 0, bytes - len);
		free(data);
	} else {
		return fail(RF_EINPUT, "-a %s: bad INIT '%s' (expected zero, iota, rand or "
		            "file=PATH)", spec, init);
	}
	return RF_OK;
}

/* buf:TYPE:COUNT:INIT -> a filled device buffer */
static int build_buf(Gpu *g, const char *spec, const ParamInfo *pi, int i,
                     const char *kname, uint64_t *rng, KArg *a)
{
	char *s = xstrdup(spec + 4), *count_s = strchr(s, ':');
	char *init = count_s ? strchr(count_s + 1, ':') : NULL;
	int rc = RF_EINPUT;
	if (!init) {
		fail(rc, "-a %s: expected buf:TYPE:COUNT:INIT", spec);
		goto out;
	}
	*count_s++ = 0;
	*init++ = 0;
	const SType *t = find_type(s);
	if (!t) {
		fail(rc, "-a %s: unknown type '%s' (u8..u64, s8..s64, b8..b64, f32, f64)", spec, s);
		goto out;
	}
	errno = 0;
	int bad = parse_u64(count_s, &a->count);
	if ((bad && errno != ERANGE) || (!bad && a->count == 0)) {
		fail(rc, "-a %s: bad COUNT '%s' (expected a positive integer)", spec, count_s);
		goto out;
	}
	if (bad || a->count > MAX_COUNT) {        /* ERANGE: more than 64 bits */
		fail(rc, "-a %s: COUNT '%s' is too large: a buffer holds at most %llu (2^40) "
		     "elements", spec, count_s, MAX_COUNT);
		goto out;
	}
	if (pi->size != 8) {
		fail(rc, "-a %s: parameter %d of kernel '%s' is %u bytes; a buffer's address "
		     "needs an 8-byte (.u64) parameter", spec, i, kname, pi->size);
		goto out;
	}
	snprintf(a->type, sizeof a->type, "%s", t->name);
	a->is_buf = 1;
	a->bytes = a->count * t->bytes;
	if ((rc = gpu_mem_alloc(g, a->bytes, &a->dptr))) {
		fail(rc, "-a %s: %s", spec, err_msg());
		goto out;
	}
	uint8_t *p = gpu_mem_host(g, a->dptr, a->bytes);
	if (!p) die("fresh allocation of %llu bytes has no host view", (unsigned long long)a->bytes);
	rc = fill_buffer(p, t, a->count, init, rng, spec);
	put_le(a->scalar, a->dptr, 8);
out:
	free(s);
	return rc;
}

static int build_scalar(const char *spec, const ParamInfo *pi, int i, const char *kname,
                        KArg *a)
{
	const char *colon = strchr(spec, ':');
	char tname[8];
	if (!colon || colon - spec >= (int)sizeof tname)
		return fail(RF_EINPUT, "-a %s: expected TYPE:VALUE or buf:TYPE:COUNT:INIT", spec);
	snprintf(tname, sizeof tname, "%.*s", (int)(colon - spec), spec);
	const SType *t = find_type(tname);
	if (!t)
		return fail(RF_EINPUT, "-a %s: unknown type '%s' (u8..u64, s8..s64, b8..b64, "
		            "f32, f64, or buf:...)", spec, tname);
	if (parse_scalar(t, colon + 1, a->scalar))
		return fail(RF_EINPUT, "-a %s: '%s' is not a %s value", spec, colon + 1, t->name);
	if ((uint32_t)t->bytes != pi->size)
		return fail(RF_EINPUT, "-a %s: parameter %d of kernel '%s' is %u bytes, %s is %d",
		            spec, i, kname, pi->size, t->name, t->bytes);
	snprintf(a->type, sizeof a->type, "%s", t->name);
	a->bytes = t->bytes;
	return RF_OK;
}

int kargs_build(Gpu *g, const Opts *o, const KernelAttr *ka, const char *kname,
                uint64_t seed, KArg *out, uint8_t *params)
{
	if (o->nargs != ka->nparam)
		return fail(RF_EINPUT, "kernel '%s' takes %d parameter%s, %d given with -a",
		            kname, ka->nparam, ka->nparam == 1 ? "" : "s", o->nargs);
	uint64_t rng = seed;
	for (int i = 0; i < o->nargs; i++) {
		const ParamInfo *pi = &ka->params[i];
		const char *spec = o->args[i];
		KArg *a = &out[i];
		memset(a, 0, sizeof *a);
		int rc = !strncmp(spec, "buf:", 4) ? build_buf(g, spec, pi, i, kname, &rng, a)
		                                   : build_scalar(spec, pi, i, kname, a);
		if (rc) return rc;
		assert(pi->offset + pi->size <= ka->param_bytes);
		memcpy(params + pi->offset, a->scalar, pi->size);
	}
	return RF_OK;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s) continue;
		char c = *s;
		*s = 0;
		if (mkdir(p, 0777) && errno != EEXIST) rc = -1;
		*s = c;
		if (!c || rc) break;
	}
	free(p);
	return rc;
}

int kargs_dump(Gpu *g, const char *dir, const KArg *a, int n)
{
	if (make_dirs(dir))
		return fail(RF_EINPUT, "--dump %s: cannot create directory: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		if (!a[i].is_buf) continue;
		const void *p = gpu_mem_host(g, a[i].dptr, a[i].bytes);
		if (!p) die("argument %d's buffer vanished", i);
		char path[4096];
		snprintf(path, sizeof path, "%s/arg%d.bin", dir, i);
		FILE *f = fopen(path, "wb");
		if (!f) return fail(RF_EINPUT, "cannot write %s: %s", path, strerror(errno));
		size_t w = fwrite(p, 1, a[i].bytes, f);
		if (fclose(f) || w != a[i].bytes)
			return fail(RF_ERUNTIME, "error writing %s", path);
	}
	return RF_OK;
}
