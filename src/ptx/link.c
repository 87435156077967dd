/*
 * link.c -- relocatable device code: the PTX of several translation units
 * joined into one module, as nvlink joins their machine code.
 *
 * A program built with `nvcc -rdc=true` (or `-dc` and a device link)
 * carries, per translation unit, relocatable PTX: functions and variables
 * another unit defines are declared `.extern` (`.extern .func f(...)`,
 * `.extern .global .u32 counter`), what a unit exports is `.visible`, and
 * inline functions and template instances several units may define are
 * `.weak`.  The device link's own image holds only machine code, or
 * nothing at all for PTX-only builds (see src/cudart/fatbin.c), so rfsim
 * links the units' PTX itself, once per device-link unit, and loads the
 * result as one module.
 *
 * Design: link by text, analyse once.  Each unit is parsed on its own
 * (syntax errors are reported against that unit), its module-scope
 * symbols are resolved against the others' by name, the modules are
 * edited so that their concatenation is one well-formed PTX module, and
 * they are printed back (print.c) one after another under one header.
 * The caller parses that text as any module: the parser joins an
 * `.extern` declaration with the definition that follows or precedes it
 * (parse_func.c for functions, parse_decl.c for variables), so every call
 * and every address names the one definition.  From there a linked
 * program is one Module like any other: register allocation (callees'
 * register counts included), the RegMutex, LTRF and register-sharing
 * passes, decoding of direct and indirect calls, one storage per variable
 * (so cudaMemcpyToSymbol from any unit's host code reaches the same
 * __device__ or __constant__ variable).  Merging IR directly would need
 * every table of ir.h renumbered; printing reuses code that round-trips
 * the whole corpus.
 *
 * Resolution follows nvlink's rules for each name of external linkage:
 *   - one strong definition (.visible, or .extern's definition) wins;
 *     two are an error naming the symbol and both units;
 *   - otherwise the first `.weak` (or `.common`) definition wins, and the
 *     other units' weak definitions become declarations of it;
 *   - a declaration that nothing defines is an error naming the symbol
 *     and the unit that needs it, unless it is a function the simulator
 *     provides (vprintf, malloc, the device-side launch of dynamic
 *     parallelism ...: the caller's `provided`).  The device runtime's
 *     other functions (libcudadevrt: device-side cudaMalloc, streams,
 *     cudaDeviceSynchronize, which CDP2 removed, ...) are named as such.
 * Symbols without linkage (static functions and variables, the `$str`
 * strings of printf, libdevice's internal helpers) belong to their unit:
 * one whose name another unit also uses is renamed NAME$rdcN (N its unit,
 * from 1).  `.extern .shared` arrays are dynamic shared memory, never
 * linked.  The header is the highest .version of the units and the first
 * unit's .target.  Not linked: `.alias` across units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ptx.h"

typedef struct LSym {        /* one module-scope symbol of one unit */
	char *name;              /* a copy: renaming interns strings, which moves a module's */
	int unit;                /* index into the units */
	int32_t sym;             /* Sym id in that unit's module */
	uint8_t func;            /* a function (else a variable) */
	uint8_t def;             /* defines it (a body, or a variable not .extern) */
	uint8_t weak;            /* .weak or .common */
	uint8_t linkage;         /* has external linkage (.visible/.extern/.weak/.common) */
} LSym;

static int by_name(const void *a, const void *b)
{
	const LSym *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->unit - y->unit;
}

/* the unit's module-scope symbols, appended to *v */
static void collect(const Module *m, int unit, LSym **v, size_t *n, size_t *cap)
{
	for (int32_t i = 0; i < m->nglobal; i++) {
		const Sym *s = &m->syms[m->globals[i]];
		if (s->kind == SYM_VAR && s->space == SP_SHARED && (s->attr & ATTR_EXTERN))
			continue;                  /* dynamic shared memory: not a linked symbol */
		if (s->kind != SYM_VAR && s->kind != SYM_FUNC) continue;
		int func = s->kind == SYM_FUNC;
		VEC_RESERVE(*v, *cap, *n + 1);
		(*v)[(*n)++] = (LSym){
			.name = xstrdup(ir_str(m, s->name)), .unit = unit, .sym = m->globals[i], .func = func,
			.def = func ? m->funcs[s->func].has_body : !(s->attr & ATTR_EXTERN),
			.weak = (s->attr & (ATTR_WEAK | ATTR_COMMON)) != 0,
			.linkage = (s->attr & (ATTR_VISIBLE | ATTR_EXTERN | ATTR_WEAK |
			                       ATTR_COMMON)) != 0,
		};
	}
}

/* a weak definition that lost to another: it becomes a declaration */
static void undefine(Module *m, int32_t sym)
{
	Sym *s = &m->syms[sym];
	if (s->kind == SYM_FUNC) {
		m->funcs[s->func].has_body = 0;
		return;
	}
	s->attr = ATTR_EXTERN;
	s->init = NULL;
	s->init_nsym = 0;
	s->isyms = NULL;
}

/* the device runtime's entry points (libcudadevrt): cudaX, and __cudaCDP2X as
 * nvcc 12+ calls them.  The device-side launch of CDP2 (GetParameterBufferV2,
 * LaunchDeviceV2) is provided, as a builtin; the rest are refused here */
static int devrt_func(const char *name)
{
	return !strncmp(name, "cuda", 4) || !strncmp(name, "__cudaCDP", 9) ||
	       !strncmp(name, "__cudaDevice", 12);
}

static void unresolved(const LSym *d, const PtxUnit *u)
{
	if (d->func && devrt_func(d->name) && strstr(d->name, "DeviceSynchronize"))
		err_set("rdc link: %s in %s: device-side cudaDeviceSynchronize was removed by CUDA "
		        "12's dynamic parallelism (CDP2), which rfsim implements", d->name,
		        u[d->unit].name);
	else if (d->func && devrt_func(d->name) &&
	         (strstr(d->name, "GetParameterBuffer") || strstr(d->name, "LaunchDevice")))
		err_set("rdc link: %s in %s is a device-side launch form rfsim does not provide "
		        "(dynamic parallelism takes <<<>>>: __cudaCDP2GetParameterBufferV2 and "
		        "__cudaCDP2LaunchDeviceV2)", d->name, u[d->unit].name);
	else if (d->func && devrt_func(d->name))
		err_set("rdc link: %s in %s is a device runtime function (libcudadevrt), which "
		        "rfsim does not provide", d->name, u[d->unit].name);
	else
		err_set("rdc link: unresolved extern %s '%s' (needed by %s)",
		        d->func ? "function" : "variable", d->name, u[d->unit].name);
}

/* resolve the symbols g[0..n) that share one name; RF_EINPUT with err_msg() */
static int resolve(Module **m, const PtxUnit *u, LSym *g, size_t n, int (*provided)(const char *))
{
	const LSym *strong = NULL, *weak = NULL, *decl = NULL, *first = NULL;
	for (size_t i = 0; i < n; i++) {
		const LSym *s = &g[i];
		if (!s->linkage) continue;
		if (!first) first = s;
		if (s->func != first->func) {
			err_set("rdc link: '%s' is a %s in %s and a %s in %s", s->name,
			        first->func ? "function" : "variable", u[first->unit].name,
			        s->func ? "function" : "variable", u[s->unit].name);
			return RF_EINPUT;
		}
		if (s->def && !s->weak) {
			if (strong) {
				err_set("rdc link: multiple definition of '%s' in %s, first defined in %s",
				        s->name, u[s->unit].name, u[strong->unit].name);
				return RF_EINPUT;
			}
			strong = s;
		} else if (s->def) {
			if (!weak) weak = s;
		} else if (!decl) {
			decl = s;
		}
	}
	const LSym *win = strong ? strong : weak;
	for (size_t i = 0; i < n; i++)           /* the losing weak definitions */
		if (g[i].linkage && g[i].def && &g[i] != win) undefine(m[g[i].unit], g[i].sym);
	if (decl && !win && !(decl->func && provided && provided(decl->name))) {
		unresolved(decl, u);
		return RF_EINPUT;
	}
	for (size_t i = 0; n > 1 && i < n; i++) {   /* unit-local names another unit uses */
		if (g[i].linkage) continue;
		Module *mi = m[g[i].unit];
		char buf[512];
		snprintf(buf, sizeof buf, "%s$rdc%d", g[i].name, g[i].unit + 1);
		mi->syms[g[i].sym].name = ir_intern(mi, buf, strlen(buf));
	}
	return RF_OK;
}

/* append module m's printed text, without its header unless it is the first */
static void append(Module *m, int first, char **out, size_t *len, size_t *cap)
{
	size_t n;
	char *t = ptx_print_str(m, &n);
	for (char *line = t; *line;) {
		char *nl = strchr(line, '\n');
		size_t k = nl ? (size_t)(nl - line) + 1 : strlen(line);
		int header = !strncmp(line, ".version", 8) || !strncmp(line, ".target", 7) ||
		             !strncmp(line, ".address_size", 13) ||
		             (!first && !strncmp(line, ".file", 5));
		if (!header) {
			VEC_RESERVE(*out, *cap, *len + k + 1);
			memcpy(*out + *len, line, k);
			*len += k;
		}
		line += k;
	}
	(*out)[*len] = 0;
	free(t);
}

char *ptx_link(const PtxUnit *u, int n, int (*provided)(const char *), size_t *len)
{
	Module **m = xcalloc((size_t)n + 1, sizeof *m);
	LSym *v = NULL;
	size_t nv = 0, cap = 0;
	char *out = NULL;
	int ok = n > 0;
	if (!ok) err_set("rdc link: no translation units to link");
	for (int i = 0; ok && i < n; i++) {
		if (!(m[i] = ptx_parse(u[i].text, u[i].len, u[i].name))) ok = 0;
		else collect(m[i], i, &v, &nv, &cap);
	}
	if (ok) qsort(v, nv, sizeof *v, by_name);
	for (size_t i = 0, j; ok && i < nv; i = j) {
		for (j = i + 1; j < nv && !strcmp(v[j].name, v[i].name); j++) {}
		if (resolve(m, u, v + i, j - i, provided)) ok = 0;
	}
	if (ok) {
		int maj = 0, min = 0;
		for (int i = 0; i < n; i++)
			if (m[i]->version_major > maj ||
			    (m[i]->version_major == maj && m[i]->version_minor > min))
				maj = m[i]->version_major, min = m[i]->version_minor;
		size_t ocap = 0;
		*len = 0;
		char head[256];
		int k = snprintf(head, sizeof head, "// linked by rfsim from %d units\n.version %d.%d\n"
		                 ".target %s\n.address_size %d\n", n, maj, min,
		                 ir_str(m[0], m[0]->target), m[0]->address_size);
		VEC_RESERVE(out, ocap, (size_t)k + 1);
		memcpy(out, head, (size_t)k + 1);
		*len = (size_t)k;
		for (int i = 0; i < n; i++) append(m[i], i == 0, &out, len, &ocap);
	}
	for (int i = 0; i < n; i++)
		if (m[i]) ir_free(m[i]);
	free(m);
	for (size_t i = 0; i < nv; i++) free(v[i].name);
	free(v);
	return out;
}
