/*
 * exec_mem.c -- the functional core's memory instructions (ld, ldu, st,
 * atom, red) and its fault reports.
 *
 * Every access is checked: global addresses against the live allocations
 * (devmem.h), shared, local, constant and parameter addresses against their
 * sizes, and every address for natural alignment.  A failed check leaves a
 * compute-sanitizer-like report in err_msg() -- what was accessed, in
 * which space, by which kernel, block, thread and PTX line (quoted), and
 * the nearest allocation -- and stops the kernel.  Generic addresses are
 * resolved through the windows of gpu.h.  With a step trace attached
 * (warp.h), every lane's resolved space and address is recorded for the
 * timing model's coalescer.
 */
#include <stdio.h>

#include "base/base.h"
#include "func/alu.h"
#include "func/exec_int.h"

/* ---- fault reports ---------------------------------------------------- */

static void quote_line(const Launch *L, uint32_t line)
{
	if (!L->src || !line) return;
	const char *s = L->src;
	for (uint32_t n = 1; n < line && *s; s++)
		if (*s == '\n') n++;
	while (*s == ' ' || *s == '\t') s++;
	const char *e = strchr(s, '\n');
	int len = e ? (int)(e - s) : (int)strlen(s);
	if (len > 160) len = 160;
	err_append("\n    %.*s", len, s);
}

void exec_thread_of(const Launch *L, const Warp *w, uint32_t l, uint32_t t[3])
{
	uint32_t lin = (uint32_t)w->widx * 32 + l;
	t[0] = lin % L->block.x;
	t[1] = lin / L->block.x % L->block.y;
	t[2] = lin / (L->block.x * L->block.y);
}


static const char *space_word(int xs)
{
	static const char *const n[] = {"global", "shared", "local", "local", "constant",
	                                "parameter", "generic"};
	return n[xs];
}

/* err_msg(): what happened, then the kernel, block, thread and PTX line, quoted */
static void where(const Cta *c, const Warp *w, uint32_t l, const DIns *d, const char *what)
{
	const Launch *L = c->L;
	uint32_t t[3];
	exec_thread_of(L, w, l, t);
	err_set("%s\n  in kernel %s, block (%u,%u,%u), thread (%u,%u,%u), %s:%u", what, L->kname,
	        c->id.x, c->id.y, c->id.z, t[0], t[1], t[2], L->file, d->line);
	quote_line(L, d->line);
}

void exec_fault(const Cta *c, const Warp *w, uint32_t l, const DIns *d, int kind,
                const char *what)
{
	char msg[640];
	launch_fault(c->L, kind);
	snprintf(msg, sizeof msg, "kernel fault: %s", what);
	where(c, w, l, d, msg);
}

/* err_msg(): an access and the allocation nearest below it */
static void access_report(const Cta *c, const Warp *w, uint32_t l, const DIns *d, int xs,
                          uint64_t a, uint32_t n, int store, const char *why)
{
	char msg[512];
	const char *acc = d->op == OP_ATOM ? "atomic" : store ? "store" : "load";
	snprintf(msg, sizeof msg, "kernel fault: %s %s %s of %u bytes at address 0x%llx", why,
	         space_word(xs), acc, n, (unsigned long long)a);
	where(c, w, l, d, msg);
	if (xs == XS_GLOBAL || xs == XS_GENERIC) {
		const GMem *g = c->L->gm;
		const Alloc *best = NULL;
		for (int32_t i = 0; i < g->n; i++)     /* nearest live allocation below */
			if (g->a[i].live && g->a[i].base <= a) best = &g->a[i];
		if (best) {
			uint64_t end = best->base + best->size, past = a - end;
			err_append("\n  nearest allocation below: 0x%llx..0x%llx (%llu bytes); the "
			           "access starts ", (unsigned long long)best->base,
			           (unsigned long long)(end - 1), (unsigned long long)best->size);
			if (a < end && n <= end - a) err_append("inside it");   /* misaligned */
			else if (a < end) err_append("inside it and runs past its end");
			else if (!past) err_append("right after its end");
			else err_append("%llu bytes after its end", (unsigned long long)past);
		} else {
			err_append("\n  no allocation lies below this address");
		}
	}
}

static void mem_fault(const Cta *c, const Warp *w, uint32_t l, const DIns *d, int xs,
                      uint64_t a, uint32_t n, int store, const char *why)
{
	launch_fault(c->L, why[0] == 'm' ? FAULT_MISALIGNED : FAULT_ADDRESS);
	access_report(c, w, l, d, xs, a, n, store, why);
}

/* mem.oob = warn|allow: an access past an allocation's end, in its last page */
static uint8_t *past_end(const Cta *c, const Warp *w, uint32_t l, const DIns *d, uint64_t a,
                         uint32_t n, int store)
{
	GMem *g = c->L->gm;
	uint8_t *p = gmem_slack_ptr(g, a, n);
	if (p && g->warn && !g->warned) {
		g->warned = 1;
		access_report(c, w, l, d, XS_GLOBAL, a, n, store, "out-of-bounds");
		fprintf(stderr, "rfsim: warning (mem.oob=warn; the first of this kernel, allowed as the "
		        "hardware maps the allocation's page): %s\n", err_msg() + strlen("kernel fault: "));
		err_clear();
	}
	return p;
}

/* host pointer for an access of n bytes at address a in space xs, or NULL
 * after recording a fault */
uint8_t *exec_addr(Cta *c, Warp *w, uint32_t l, const DIns *d, int xs, uint64_t a,
                      uint32_t n, int store)
{
	return exec_span(c, w, l, d, xs, a, n, n, store, 1);
}

/* the space a generic address lies in, *a made an address in it (gpu.h's windows) */
static inline int generic_space(uint64_t *a)
{
	static const struct { uint64_t base; int xs; } win[] = {
		{GPU_SHARED_WIN, XS_SHARED}, {GPU_LOCAL_WIN, XS_LOCAL}, {GPU_CONST_WIN, XS_CONST},
		{GPU_PARAM_WIN, XS_KPARAM},
	};
	for (size_t i = 0; i < sizeof win / sizeof *win; i++)
		if (*a - win[i].base < GPU_WIN_SIZE) {
			*a -= win[i].base;
			return win[i].xs;
		}
	return XS_GLOBAL;
}

uint8_t *exec_span(Cta *c, Warp *w, uint32_t l, const DIns *d, int xs, uint64_t a,
                   uint32_t n, uint32_t align, int store, int trace)
{
	const Launch *L = c->L;
	if (xs == XS_GENERIC) xs = generic_space(&a);
	/* after resolving a generic address (the windows are aligned), so the
	   report names the space and, for global memory only, an allocation */
	if (align > 1 && (a & (align - 1))) {
		mem_fault(c, w, l, d, xs, a, n, store, "misaligned");
		return NULL;
	}
	StepTrace *tr = w->trace;
	if (tr && trace) {
		tr->space[l] = (uint8_t)xs;
		tr->addr[l] = xs == XS_FRAME ? a + w->lbase : a;
		tr->nbytes = n;
		tr->mem_lanes |= 1u << l;
	}
	switch (xs) {
	case XS_GLOBAL: {
		uint8_t *p = gmem_ptr(L->gm, a, n, &w->mem_hint);
		if (!p && L->gm->page) p = past_end(c, w, l, d, a, n, store);
		if (!p) mem_fault(c, w, l, d, xs, a, n, store, "out-of-bounds");
		return p;
	}
	case XS_SHARED: {
		const Cta *o = c;                /* a shared::cluster address: another CTA's */
		uint64_t r = a >> CLUSTER_RANK_SHIFT;
		if (r) {
			if (r > (uint64_t)c->cl->n) {
				char m[200];
				snprintf(m, sizeof m, "%s of %u bytes at shared::cluster address 0x%llx: "
				         "CTA rank %llu of a cluster of %d", d->op == OP_ATOM ? "atomic" :
				         store ? "store" : "load", n, (unsigned long long)a,
				         (unsigned long long)(r - 1), c->cl->n);
				exec_fault(c, w, l, d, FAULT_ADDRESS, m);
				return NULL;
			}
			o = c->cl->cta[r - 1];
			a &= (1ull << CLUSTER_RANK_SHIFT) - 1;
		}
		if (a < o->shared_bytes && n <= o->shared_bytes - a) return o->shared + a;
		break;
	}
	case XS_FRAME:
		a += w->lbase;
		/* fall through */
	case XS_LOCAL:
		if (a < w->local_bytes && n <= w->local_bytes - a)
			return w->local + (size_t)l * w->local_bytes + a;
		break;
	case XS_CONST:
		if (store) {
			mem_fault(c, w, l, d, xs, a, n, store, "read-only");
			return NULL;
		}
		if (a < L->cbank_bytes && n <= L->cbank_bytes - a) return L->cbank + a;
		break;
	case XS_KPARAM:
		if (store) {
			mem_fault(c, w, l, d, xs, a, n, store, "read-only");
			return NULL;
		}
		if (a < L->param_bytes && n <= L->param_bytes - a) return (uint8_t *)L->params + a;
		break;
	}
	mem_fault(c, w, l, d, xs, a, n, store, "out-of-bounds");
	return NULL;
}

/* ---- memory instructions -------------------------------------------------- */

/* the whole warp's accesses of n bytes at once, when they fall in one global
 * allocation or in the CTA's own shared memory, naturally aligned (generic addresses
 * too, every lane's in the same one of those spaces): the host address of the lowest,
 * *lo (lane l's is that + addr[l] - *lo), and the step trace filled as exec_span()
 * fills it lane by lane.  NULL: take the lanes one at a time (other spaces, another
 * CTA's shared memory, several allocations or spaces, a fault to report) */
static uint8_t *warp_span(Cta *c, Warp *w, const DIns *d, uint32_t act, uint32_t n,
                          uint64_t addr[32], uint64_t *lo)
{
	const Image *img = c->L->img;
	int xs = d->space, gen = xs == XS_GENERIC;
	if (xs != XS_GLOBAL && xs != XS_SHARED && !gen) return NULL;
	uint64_t mn = UINT64_MAX, mx = 0, bits = 0;
	LANES(act, l) {
		uint64_t a = exec_addr_of(w, img, d, l);
		if (gen) {
			int s = generic_space(&a);
			if (xs == XS_GENERIC) xs = s;
			if (s != xs || (s != XS_GLOBAL && s != XS_SHARED)) return NULL;
		}
		addr[l] = a;
		mn = a < mn ? a : mn;
		mx = a > mx ? a : mx;
		bits |= a;
	}
	if ((bits & (n - 1)) || mx > UINT64_MAX - n) return NULL;
	uint8_t *p;
	if (xs == XS_GLOBAL) {
		p = gmem_ptr(c->L->gm, mn, mx + n - mn, &w->mem_hint);
	} else {
		if (mx + n > c->shared_bytes) return NULL;   /* a rank bit, or out of bounds */
		p = c->shared + mn;
	}
	if (!p) return NULL;
	StepTrace *tr = w->trace;
	if (tr) {
		LANES(act, l) tr->space[l] = (uint8_t)xs, tr->addr[l] = addr[l];
		tr->nbytes = n;
		tr->mem_lanes |= act;
	}
	*lo = mn;
	return p;
}

static inline void ld_lane(Warp *w, const DIns *d, uint32_t l, const uint8_t *p, int n, int e,
                           int sgn)
{
	for (int i = 0; i < n; i++) {
		if (d->d[i] < 0) continue;
		uint64_t v = extend(load_le(p + i * e, e), e, sgn);
		wrw(dstp(w, d->d[i]), l, d->dw[i], v);
	}
}

int exec_ld(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	int n = d->nd, e = d->elt, sgn = (d->flags & DF_SIGNED) != 0;
	uint64_t addr[32], lo;
	const uint8_t *base = warp_span(c, w, d, act, (uint32_t)(e * n), addr, &lo);
	if (base) {
		LANES(act, l) ld_lane(w, d, l, base + (addr[l] - lo), n, e, sgn);
		return EX_OK;
	}
	LANES(act, l) {
		uint64_t a = exec_addr_of(w, img, d, l);
		const uint8_t *p = exec_addr(c, w, l, d, d->space, a, (uint32_t)(e * n), 0);
		if (!p) return EX_FAULT;
		ld_lane(w, d, l, p, n, e, sgn);
	}
	return EX_OK;
}

int exec_st(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	int n = d->ns, e = d->elt;
	w->nwrites++;
	if (d->space == XS_LOCAL || d->space == XS_FRAME) {
		w->nlocal++;
	} else if (d->space == XS_GENERIC) {   /* a -G build's locals: through generic addresses */
		uint64_t a = exec_addr_of(w, img, d, (uint32_t)__builtin_ctz(act));
		w->nlocal += a - GPU_LOCAL_WIN < GPU_WIN_SIZE;
	}
	uint64_t addr[32], lo;
	uint8_t *base = warp_span(c, w, d, act, (uint32_t)(e * n), addr, &lo);
	LANES(act, l) {
		uint8_t *p = base ? base + (addr[l] - lo)
		                  : exec_addr(c, w, l, d, d->space, exec_addr_of(w, img, d, l),
		                              (uint32_t)(e * n), 1);
		if (!p) return EX_FAULT;
		for (int i = 0; i < n; i++)
			store_le(p + i * e, e, rdw(srcp(w, img, d->s[i]), l, d->sw[i]));
	}
	return EX_OK;
}

int exec_atom(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	int e = d->elt;
	if (d->aux > 1) {              /* a vector atomic: element by element, as one access */
		int nv = d->aux;
		LANES(act, l) {
			uint64_t a = exec_addr_of(w, img, d, l);
			uint8_t *p = exec_addr(c, w, l, d, d->space, a, (uint32_t)(e * nv), 1);
			if (!p) return EX_FAULT;
			uint64_t b[DINS_MAXS], old[DINS_MAXS];   /* every source read before any write:
			                                            a register may be both */
			for (int k = 0; k < nv; k++) b[k] = rdw(srcp(w, img, d->s[k]), l, d->sw[k]);
			for (int k = 0; k < nv; k++) {
				old[k] = load_le(p + k * e, e);
				uint64_t nv2 = alu_atom((AtomOp)d->aop, (PtxType)d->type, old[k], b[k], 0);
				store_le(p + k * e, e, nv2);
				w->nwrites += nv2 != old[k];
			}
			for (int k = 0; k < nv && k < d->nd; k++)
				if (d->d[k] >= 0) wrw(dstp(w, d->d[k]), l, d->dw[k], old[k]);
		}
		return EX_OK;
	}
	LANES(act, l) {
		uint64_t a = exec_addr_of(w, img, d, l);
		uint8_t *p = exec_addr(c, w, l, d, d->space, a, (uint32_t)e, 1);
		if (!p) return EX_FAULT;
		uint64_t b = rdw(srcp(w, img, d->s[0]), l, d->sw[0]);
		uint64_t cc = d->ns > 1 ? rdw(srcp(w, img, d->s[1]), l, d->sw[1]) : 0;
		uint64_t old = load_le(p, e), nv;
		/* PTX: f32 atom.add flushes subnormals on global memory but keeps them on
		 * shared memory; alu_atom models the global form */
		if (d->aop == AOP_ADD && d->type == PT_F32 && p >= c->shared &&
		    p < c->shared + c->shared_bytes)
			nv = alu_fadd(PT_F32, old, b, RND_RN, 0);
		else
			nv = alu_atom((AtomOp)d->aop, (PtxType)d->type, old, b, cc);
		store_le(p, e, nv);
		w->nwrites += nv != old;         /* a failed CAS is no progress (livelock.c) */
		if (d->nd && d->d[0] >= 0)
			wrw(dstp(w, d->d[0]), l, d->dw[0], extend(old, e, (d->flags & DF_SIGNED) != 0));
	}
	return EX_OK;
}

