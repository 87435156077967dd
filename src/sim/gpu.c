/*
 * gpu.c -- the simulated GPU behind gpu.h: device memory, program loading
 * and placement of module variables, launch validation, and the
 * functional-mode CTA scheduler.
 *
 * Functional mode runs the CTAs of a grid one after another, in launch
 * order (x fastest), on a virtual SM chosen round-robin (so %smid looks
 * like a real distribution).  Inside a CTA every ready warp runs until it
 * waits at a barrier, finishes, or has spent a slice of instructions; when
 * every live warp waits, the barriers whose counts are met release.  If
 * none can release, the CTA is deadlocked and the report lists every
 * warp's state.  This order is deterministic, so results are bit-identical
 * run to run.  A kernel whose CTAs wait for each other through global
 * memory cannot finish in this order: when a CTA spins (livelock.c says it
 * cannot end on its own) while later CTAs have yet to run -- a software
 * barrier across the grid, as Parboil's BFS has -- the rest of the grid
 * runs in rounds from there, as many CTAs resident at once as the GPU
 * holds (run_resident), so those CTAs can write what it waits for.  A lock
 * that CTAs never release is then reported as a livelock of the residents.
 *
 * A cooperative launch (gpu_launch_coop) is the exception: its CTAs wait
 * for each other by design (cooperative_groups' grid.sync() spins on a
 * counter in a workspace the launch provides; exec.c's %envreg), so its
 * whole grid must fit on the GPU at once -- the occupancy times the SMs,
 * as NVIDIA's driver requires -- and functional mode keeps every CTA
 * resident and runs them in rounds, each ready warp a short slice per
 * round.  A warp spinning at grid.sync() only waits for writes by other
 * CTAs, so the livelock test looks at the whole grid: only when no CTA
 * wrote memory or finished a warp for two rounds, and stepping every CTA's
 * ready warps brings each back to its state with still nothing written,
 * can the grid never end.
 *
 * Timing mode (sim.mode = timing, the default) hands the launch to the
 * cycle-level model instead (timing.c), which runs the same functional
 * core with every SM's CTAs resident together.
 *
 * Kernels a grid launched (dynamic parallelism, cdp.c) run when it has
 * finished, one after another in launch order, each as a launch of its own
 * (run_children), so the host's launch returns when all its descendants
 * are done.
 */
#include "sim/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "analysis/pass.h"
#include "analysis/regmutex.h"
#include "base/base.h"
#include "mem/mem.h"
#include "ptx/ptx.h"
#include "func/cdp.h"
#include "sim/prog.h"
#include "func/tex.h"
#include "timing/timing.h"
#include "func/warp.h"

struct Gpu {
	Config cfg;
	GMem gm;
	KernelStats *stats; int32_t nstats, capstats;
	int64_t total_insts;     /* warp instructions over every launch (sim.max_warp_insts) */
	TexObj *tex; int32_t ntex, captex;   /* texture and surface objects (tex.h) */
	Cdp cdp;                 /* device-side launches (dynamic parallelism, cdp.c) */
	MemSys *ms;              /* the timing model's memory system, kept between kernels
	                            (the L2's contents), made by the first timed launch */
};

Gpu *gpu_new(const Config *cfg)
{
	Gpu *g = xcalloc(1, sizeof *g);
	g->cfg = *cfg;
	gmem_init(&g->gm, (uint64_t)cfg->gpu_global_bytes);
	if (cfg->mem_oob != MEM_OOB_FAULT) gmem_map_pages(&g->gm, (uint64_t)cfg->mem_page_bytes);
	g->gm.warn = cfg->mem_oob == MEM_OOB_WARN;
	g->cdp.max_pending = CDP_MAX_PENDING;
	return g;
}

void gpu_free(Gpu *g)
{
	if (!g) return;
	gmem_fini(&g->gm);
	memsys_free(g->ms);
	free(g->stats);
	free(g->tex);
	free(g->cdp.v);
	free(g);
}

const Config *gpu_config(const Gpu *g) { return &g->cfg; }

static int last_fault;
void gpu_set_fault(int kind) { last_fault = kind; }
int gpu_last_fault(void) { return last_fault; }

int gpu_mem_alloc(Gpu *g, uint64_t bytes, uint64_t *dptr)
{
	return gmem_alloc(&g->gm, bytes, dptr);
}
int gpu_mem_free(Gpu *g, uint64_t dptr) { return gmem_free(&g->gm, dptr); }

uint64_t gpu_tex_create(Gpu *g, const TexObj *t)
{
	VEC_RESERVE(g->tex, g->captex, (size_t)g->ntex + 1);
	g->tex[g->ntex++] = *t;
	return (uint64_t)g->ntex;
}

const TexObj *gpu_tex_get(const Gpu *g, uint64_t h, int kind)
{
	if (h == 0 || h > (uint64_t)g->ntex || g->tex[h - 1].kind != kind) return NULL;
	return &g->tex[h - 1];
}

int gpu_tex_destroy(Gpu *g, uint64_t h, int kind)
{
	if (!gpu_tex_get(g, h, kind)) return RF_EINPUT;
	g->tex[h - 1].kind = TEXK_NONE;
	return RF_OK;
}

void gpu_copied_in(Gpu *g, uint64_t dptr, uint64_t bytes)
{
	if (!g->cfg.mem_memcpy_l2 || g->cfg.sim_mode != SIM_MODE_TIMING || !bytes) return;
	if (!g->ms) g->ms = memsys_new(&g->cfg, (int32_t)g->cfg.sm_count);
	uint64_t lb = (uint64_t)g->cfg.mem_line_bytes;
	for (uint64_t la = dptr / lb; la <= (dptr + bytes - 1) / lb; la++) memsys_preload(g->ms, la);
}

uint64_t gpu_heap_limit(const Gpu *g) { return g->gm.heap_limit; }
void gpu_set_heap_limit(Gpu *g, uint64_t bytes) { g->gm.heap_limit = bytes; }
uint64_t gpu_pending_limit(const Gpu *g) { return (uint64_t)g->cdp.max_pending; }
void gpu_set_pending_limit(Gpu *g, uint64_t n)
{
	g->cdp.max_pending = n > INT32_MAX ? INT32_MAX : (int32_t)n;
}

void *gpu_mem_host(Gpu *g, uint64_t dptr, uint64_t bytes)
{
	int32_t i = gmem_find(&g->gm, dptr, bytes ? bytes : 1);
	return i < 0 ? NULL : g->gm.a[i].host + (dptr - g->gm.a[i].base);
}

const KernelStats *gpu_kernel_stats(const Gpu *g, int *n)
{
	*n = g->nstats;
	return g->stats;
}

/* ---- loading ------------------------------------------------------------- */

static int64_t align_to(int64_t v, int64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static int64_t var_align(const Sym *s)
{
	if (s->align) return s->align;
	int64_t e = ptxtype_size((PtxType)s->type) * (s->vec ? s->vec : 1);
	return e ? e : 1;
}

/* generic address of a placed module symbol, for initializers like {gvar} */
static uint64_t generic_of(const Program *p, int32_t id)
{
	const Sym *s = &p->m->syms[id];
	uint64_t a = (uint64_t)p->addr[id];
	switch ((Space)s->space) {
	case SP_CONST: return GPU_CONST_WIN + a;
	case SP_SHARED: return GPU_SHARED_WIN + a;
	default: return a;
	}
}

static int place_vars(Gpu *g, Program *p)
{
	const Module *m = p->m;
	int64_t coff = 0, soff = 0;
	for (int32_t k = 0; k < m->nglobal; k++) {
		int32_t id = m->globals[k];
		const Sym *s = &m->syms[id];
		if (s->kind != SYM_VAR || (s->attr & ATTR_EXTERN && s->space != SP_SHARED)) continue;
		int64_t size = sym_size(s);
		switch ((Space)s->space) {
		case SP_GLOBAL: {
			uint64_t a;
			if (gmem_alloc(&g->gm, (uint64_t)(size ? size : 1), &a)) return RF_ERUNTIME;
			p->gallocs = xrealloc(p->gallocs, (size_t)(p->ngalloc + 1) * sizeof *p->gallocs);
			p->gallocs[p->ngalloc++] = a;
			p->addr[id] = (int64_t)a;
			break;
		}
		case SP_CONST:
			coff = align_to(coff, var_align(s));
			p->addr[id] = coff;
			coff += size;
			break;
		case SP_SHARED:
			if (s->count < 0) break;          /* dynamic: placed per kernel */
			soff = align_to(soff, var_align(s));
			p->addr[id] = soff;
			soff += size;
			break;
		default:
			break;
		}
	}
	/* the constant bank is a device allocation, so cuModuleGetGlobal and
	 * cuMemcpyHtoD reach __constant__ variables like any other */
	p->cbank_bytes = (uint32_t)coff;
	if (gmem_alloc(&g->gm, (uint64_t)coff + 1, &p->cbank_dptr)) return RF_ERUNTIME;
	p->cbank = gpu_mem_host(g, p->cbank_dptr, 1);
	p->shared_module = (uint32_t)soff;
	/* function addresses: for function pointers and vtables (prog.h) */
	if (gmem_alloc(&g->gm, (uint64_t)m->nfunc * GPU_FUNC_STRIDE + 1, &p->code_dptr))
		return RF_ERUNTIME;
	p->gallocs = xrealloc(p->gallocs, (size_t)(p->ngalloc + 1) * sizeof *p->gallocs);
	p->gallocs[p->ngalloc++] = p->code_dptr;
	for (int32_t i = 0; i < m->nfunc; i++)
		p->addr[m->funcs[i].sym] = (int64_t)(p->code_dptr + (uint64_t)i * GPU_FUNC_STRIDE);
	/* initializers, then addresses stored in initializers */
	for (int32_t k = 0; k < m->nglobal; k++) {
		int32_t id = m->globals[k];
		const Sym *s = &m->syms[id];
		if (s->kind != SYM_VAR || p->addr[id] < 0) continue;
		uint8_t *dst = s->space == SP_GLOBAL ? gpu_mem_host(g, (uint64_t)p->addr[id], 1)
		             : s->space == SP_CONST ? p->cbank + p->addr[id] : NULL;
		if (!dst) continue;
		if (s->init) memcpy(dst, s->init, (size_t)sym_size(s));
		for (int32_t i = 0; i < s->init_nsym; i++) {
			const SymInit *r = &s->isyms[i];
			if (p->addr[r->sym] < 0) {
				err_set("%s:%u:%u: initializer of '%s' takes the address of '%s', which "
				        "rfsim cannot place", m->filename, s->line, s->col,
				        ir_str(m, s->name), ir_str(m, m->syms[r->sym].name));
				return RF_EINPUT;
			}
			uint64_t v = (r->generic ? generic_of(p, r->sym) : (uint64_t)p->addr[r->sym]) +
			             (uint64_t)r->addend;
			memcpy(dst + r->offset, &v, r->size <= 8 ? r->size : 8);
		}
	}
	return RF_OK;
}

int gpu_load_ptx(Gpu *g, const char *text, size_t len, const char *filename, Program **out)
{
	Module *m = ptx_parse(text, len, filename);
	if (!m) return RF_EINPUT;
	if (pass_run(m, &g->cfg)) {     /* analyses, register allocation (src/analysis) */
		ir_free(m);
		return RF_EINPUT;
	}
	Program *p = xcalloc(1, sizeof *p);
	p->m = m;
	p->src = xstrndup(text, len);
	p->addr = xmalloc((size_t)(m->nsym + 1) * sizeof *p->addr);
	for (int32_t i = 0; i < m->nsym; i++) p->addr[i] = -1;
	int rc = place_vars(g, p);
	if (rc) goto fail;
	for (int32_t i = 0; i < m->nfunc; i++)
		if ((m->funcs[i].attr & ATTR_ENTRY) && m->funcs[i].has_body) p->nkernel++;
	p->kernels = xmalloc((size_t)(p->nkernel + 1) * sizeof *p->kernels);
	p->img = xcalloc((size_t)p->nkernel + 1, sizeof *p->img);
	p->nkernel = 0;
	for (int32_t i = 0; i < m->nfunc; i++) {
		if (!(m->funcs[i].attr & ATTR_ENTRY) || !m->funcs[i].has_body) continue;
		p->kernels[p->nkernel] = i;
		p->img[p->nkernel] = image_build(p, i);
		if (!p->img[p->nkernel]) {
			rc = RF_EINPUT;
			goto fail;
		}
		p->nkernel++;
	}
	*out = p;
	return RF_OK;
fail:
	gpu_unload(g, p);
	return rc;
}

void gpu_unload(Gpu *g, Program *p)
{
	if (!p) return;
	for (int32_t i = 0; i < p->ngalloc; i++) gmem_free(&g->gm, p->gallocs[i]);
	for (int32_t i = 0; i < p->nkernel; i++) image_free(p->img[i]);
	for (int32_t i = 0; i < p->nvar; i++) image_free(p->var[i].img), ir_free(p->var[i].m);
	free(p->var);
	free(p->img);
	free(p->kernels);
	free(p->gallocs);
	if (p->cbank) gmem_free(&g->gm, p->cbank_dptr);
	free(p->addr);
	free(p->src);
	ir_free(p->m);
	free(p);
}

int prog_nkernels(const Program *p) { return p->nkernel; }

const char *prog_kernel_name(const Program *p, int k)
{
	const Module *m = p->m;
	return ir_str(m, m->syms[m->funcs[p->kernels[k]].sym].name);
}

int prog_find_kernel(const Program *p, const char *name)
{
	for (int k = 0; k < p->nkernel; k++)
		if (!strcmp(prog_kernel_name(p, k), name)) return k;
	return -1;
}

void prog_kernel_attr(const Program *p, int k, KernelAttr *a)
{
	const Image *img = p->img[k];
	const Func *f = &p->m->funcs[p->kernels[k]];
	memset(a, 0, sizeof *a);
	a->regs_per_thread = img->regs_per_thread;
	a->shared_bytes = img->shared_static;
	a->local_bytes = (uint32_t)img->max_local;
	a->const_bytes = p->cbank_bytes;
	a->param_bytes = img->param_bytes;
	a->max_threads = 1024;
	const char *t = strstr(ir_str(p->m, p->m->target), "sm_");
	a->ptx_arch = t ? atoi(t + 3) : 0;
	int32_t mt = f->maxntid[0] ? f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
	                             (f->maxntid[2] ? f->maxntid[2] : 1) : 0;
	int32_t rt = f->reqntid[0] ? f->reqntid[0] * (f->reqntid[1] ? f->reqntid[1] : 1) *
	                             (f->reqntid[2] ? f->reqntid[2] : 1) : 0;
	if (mt && mt < a->max_threads) a->max_threads = mt;
	if (rt && rt < a->max_threads) a->max_threads = rt;
	for (int i = 0; i < 3; i++)
		a->cluster[i] = f->reqnctapercluster[0] > 0 ? (f->reqnctapercluster[i] > 0
		                                                ? f->reqnctapercluster[i] : 1) : 0;
	a->explicit_cluster = (f->attr & ATTR_EXPLICIT_CLUSTER) != 0;
	a->nparam = img->nparam;
	a->params = img->params;
}

int prog_find_global(const Program *p, const char *name, uint64_t *dptr, uint64_t *bytes)
{
	int32_t id = ir_find_sym(p->m, name);
	if (id < 0 || p->addr[id] < 0) return RF_EINPUT;
	const Sym *s = &p->m->syms[id];
	if (s->space != SP_GLOBAL && s->space != SP_CONST) return RF_EINPUT;
	*dptr = (uint64_t)p->addr[id] + (s->space == SP_CONST ? p->cbank_dptr : 0);
	*bytes = (uint64_t)sym_size(s);
	return RF_OK;
}

/* ---- launch ------------------------------------------------------------------ */

static int check_launch(const Gpu *g, const Program *p, int k, Dim3 grid, Dim3 block,
                        uint32_t dyn, size_t psize)
{
	KernelAttr a;
	prog_kernel_attr(p, k, &a);
	const char *name = prog_kernel_name(p, k);
	uint64_t threads = (uint64_t)block.x * block.y * block.z;
	int64_t maxt = g->cfg.block_max_threads < a.max_threads ? g->cfg.block_max_threads
	                                                       : a.max_threads;
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z) {
		err_set("launch of %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero", name,
		        grid.x, grid.y, grid.z, block.x, block.y, block.z);
		return RF_EINPUT;
	}
	if (block.x > 1024 || block.y > 1024 || block.z > 64 || (int64_t)threads > maxt) {
		err_set("launch of %s: block (%u,%u,%u) has %llu threads; at most %lld allowed "
		        "(x, y <= 1024, z <= 64)", name, block.x, block.y, block.z,
		        (unsigned long long)threads, (long long)maxt);
		return RF_EINPUT;
	}
	if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535) {
		err_set("launch of %s: grid (%u,%u,%u) exceeds (2^31-1, 65535, 65535)", name,
		        grid.x, grid.y, grid.z);
		return RF_EINPUT;
	}
	uint64_t shm = (uint64_t)a.shared_bytes + dyn;
	if (shm > (uint64_t)g->cfg.block_max_shared_bytes) {
		err_set("launch of %s: %u bytes of static + %u of dynamic shared memory exceed the "
		        "%lld per block (config key block.max_shared_bytes)", name, a.shared_bytes,
		        dyn, (long long)g->cfg.block_max_shared_bytes);
		return RF_EINPUT;
	}
	if (psize < a.param_bytes) {
		err_set("launch of %s: %zu bytes of parameters given, the kernel takes %u", name,
		        psize, a.param_bytes);
		return RF_EINPUT;
	}
	return RF_OK;
}

typedef struct CtaBuf {      /* warp buffers reused by every CTA of a launch */
	Warp *warps;
	int32_t nwarps;
	uint8_t *shared;
} CtaBuf;

static void ctabuf_init(CtaBuf *b, const Image *img, int32_t nwarps, uint32_t shared)
{
	b->nwarps = nwarps;
	b->warps = xcalloc((size_t)nwarps, sizeof *b->warps);
	for (int32_t i = 0; i < nwarps; i++) {
		Warp *w = &b->warps[i];
		w->regs = xcalloc((size_t)(img->max_slots + 1) * 32, sizeof *w->regs);
		w->preds = xcalloc((size_t)img->max_preds + 1, sizeof *w->preds);
		w->local_bytes = (uint32_t)img->max_local;
		w->local = xcalloc((size_t)w->local_bytes * 32 + 1, 1);
	}
	b->shared = xcalloc((size_t)shared + 1, 1);
}

static void ctabuf_free(CtaBuf *b)
{
	for (int32_t i = 0; i < b->nwarps; i++) {
		free(b->warps[i].regs);
		free(b->warps[i].preds);
		free(b->warps[i].local);
		free(b->warps[i].stk);
	}
	free(b->warps);
	free(b->shared);
}

static void deadlock_report(const Cta *c)
{
	const Launch *L = c->L;
	gpu_set_fault(FAULT_DEADLOCK);
	err_set("kernel deadlock: in kernel %s, block (%u,%u,%u) no warp can proceed", L->kname,
	        c->id.x, c->id.y, c->id.z);
	for (int32_t i = 0; i < c->nwarps; i++) {
		const Warp *w = &c->warps[i];
		if (w->state == W_DONE) {
			err_append("\n  warp %d: exited", i);
			continue;
		}
		if (w->bar_id == CLUSTER_BAR) {
			err_append("\n  warp %d: waiting at barrier.cluster.wait (%s:%u), %d warps of "
			           "the cluster's %d CTAs arrived, active lanes 0x%08x", i, L->file,
			           L->img->code[w->bar_pc].line, c->cl->arrived, c->cl->n,
			           w->stk[w->nstk - 1].mask);
			continue;
		}
		const Barrier *b = &c->bars[w->bar_id];
		err_append("\n  warp %d: waiting at barrier %u (%s:%u), %d of %d warps arrived, "
		           "active lanes 0x%08x", i, w->bar_id, L->file, L->img->code[w->bar_pc].line,
		           b->arrived, b->expected ? b->expected : c->live_warps,
		           w->stk[w->nstk - 1].mask);
	}
}

static void livelock_report(const Cta *c)
{
	const Launch *L = c->L;
	gpu_set_fault(FAULT_DEADLOCK);
	err_set("kernel livelock: in kernel %s, block (%u,%u,%u) the warps keep running but can "
	        "never finish: each came back to an earlier state (pc, registers, predicates) "
	        "with no memory written in between", L->kname, c->id.x, c->id.y, c->id.z);
	for (int32_t i = 0; i < c->nwarps; i++) {
		const Warp *w = &c->warps[i];
		if (w->state == W_DONE) err_append("\n  warp %d: exited", i);
		else if (w->state != W_READY && w->bar_id == CLUSTER_BAR)
			err_append("\n  warp %d: waiting at barrier.cluster.wait (%s:%u)", i, L->file,
			           L->img->code[w->bar_pc].line);
		else if (w->state != W_READY)
			err_append("\n  warp %d: waiting at barrier %u (%s:%u)", i, w->bar_id, L->file,
			           L->img->code[w->bar_pc].line);
		else
			err_append("\n  warp %d: spinning at %s:%u, active lanes 0x%08x", i, L->file,
			           L->img->code[warp_pc(w)].line, w->stk[w->nstk - 1].mask);
	}
}

static int limit_reached(const Cta *c)
{
	gpu_set_fault(FAULT_LIMIT);
	err_set("kernel %s stopped at the instruction limit (%s): a runaway loop, or blocks "
	        "waiting for each other, which functional mode runs one at a time "
	        "(cooperative launches excepted)", c->L->kname, c->L->limit_why);
	return RF_ERUNTIME;
}

/* each ready warp of CTA c runs up to slice instructions; *ran: some warp
   ran; RF_OK, or RF_ERUNTIME (a fault, or the instruction budget spent) */
static int run_slices(Cta *c, int64_t *budget, int64_t slice, int *ran)
{
	*ran = 0;
	for (int32_t i = 0; i < c->nwarps; i++) {
		Warp *w = &c->warps[i];
		if (w->state != W_READY) continue;
		uint64_t before = w->ninsts;
		int r = exec_run(c, w, slice);
		*budget -= (int64_t)(w->ninsts - before);
		if (r == EX_FAULT) return RF_ERUNTIME;
		*ran = 1;
		if (*budget <= 0) return limit_reached(c);
	}
	return RF_OK;
}

/* every live warp of c waits at a barrier: release what can go; RF_OK, or
   RF_ERUNTIME when no warp is ready after it (a deadlock, reported) */
static int release_or_deadlock(Cta *c)
{
	cta_release_barriers(c);
	int ready = 0;
	for (int32_t i = 0; i < c->nwarps; i++) ready |= c->warps[i].state == W_READY;
	if (ready) return RF_OK;
	deadlock_report(c);
	return RF_ERUNTIME;
}

enum { CTA_SPINS = -1 };     /* run_cta: it cannot end on its own (others may free it) */

/* run one CTA to completion; RF_OK or RF_ERUNTIME, or CTA_SPINS when it livelocks
 * and others (later CTAs) could still write what it waits for */
static int run_cta(Cta *c, int64_t *budget, int others)
{
	enum { SLICE = 1 << 16 };
	uint64_t writes = 0;
	int32_t live = -1, quiet = 0;       /* rounds with no write and no warp done */
	for (;;) {
		int ran;
		if (run_slices(c, budget, SLICE, &ran) != RF_OK) return RF_ERUNTIME;
		if (!c->live_warps) return RF_OK;
		if (ran) {
			uint64_t n = cta_writes(c);
			quiet = n == writes && c->live_warps == live ? quiet + 1 : 0;
			writes = n, live = c->live_warps;
			if (quiet >= 2) {
				int r = livelock_cta(c, budget);
				if (r < 0) return RF_ERUNTIME;
				if (r && others) return CTA_SPINS;
				if (r) {
					livelock_report(c);
					return RF_ERUNTIME;
				}
				quiet = 0;
			}
			continue;
		}
		if (release_or_deadlock(c) != RF_OK) return RF_ERUNTIME;
	}
}

/* CTA number id of the launch, on the buffers of buf, ready to run */
static void cta_start(Cta *c, const Launch *L, uint64_t id, CtaBuf *buf)
{
	Dim3 grid = L->grid;
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint32_t shared = img_cta_shared(L->img, L->dyn_shmem);
	*c = (Cta){0};
	c->L = L;
	c->id = (Dim3){(uint32_t)(id % grid.x), (uint32_t)(id / grid.x % grid.y),
	               (uint32_t)(id / ((uint64_t)grid.x * grid.y))};
	c->nwarps = nwarps;
	c->warps = buf->warps;
	c->shared = buf->shared;
	c->shared_bytes = shared;
	c->live_warps = nwarps;
	c->smid = (int32_t)(id % (uint64_t)L->nsm);
	c->rank = (int32_t)cluster_rank_of(L, c->id);
	for (int b = 0; b < 16; b++) c->bars[b].red_and = 1;
	memset(c->shared, 0, shared);
	for (int32_t i = 0; i < nwarps; i++) warp_reset(&c->warps[i], c, i);
}

static void cta_count(const Cta *c, KernelStats *ks)
{
	for (int32_t i = 0; i < c->nwarps; i++) {
		ks->warp_insts += c->warps[i].ninsts;
		ks->thread_insts += c->warps[i].nthread;
	}
}

static int run_clusters(const Launch *L, int64_t budget, KernelStats *ks);
static int coop_livelock(Cta *cs, uint64_t ncta, int64_t *budget);
static int coop_round(Cta *c, int64_t *budget, int *ran);
static int run_resident(const Launch *L, Cta *first, CtaBuf *buf, uint64_t next,
                        uint64_t fit, int64_t budget, KernelStats *ks);

/* functional mode: the CTAs of the grid one after another.  A CTA that spins
 * for memory a later CTA could write (a software barrier across the grid:
 * Parboil's BFS) hands over to run_resident, which from there runs the rest
 * of the grid in rounds, at most `fit` CTAs resident at once as on the GPU. */
static int run_grid(const Launch *L, uint64_t fit, int64_t budget, KernelStats *ks)
{
	if (L->csize > 1) return run_clusters(L, budget, ks);
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	CtaBuf buf;
	ctabuf_init(&buf, L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
	int rc = RF_OK;
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	for (uint64_t id = 0; id < ncta && rc == RF_OK; id++) {
		Cta c;
		Cluster cl = {.n = 1};
		cta_start(&c, L, id, &buf);
		cl.cta[0] = &c, c.cl = &cl;
		rc = run_cta(&c, &budget, id + 1 < ncta && fit > 1);
		if (rc == CTA_SPINS) return run_resident(L, &c, &buf, id + 1, fit, budget, ks);
		cta_count(&c, ks);
	}
	ctabuf_free(&buf);
	return rc;
}

/* the rest of the grid from CTA `next` on, in rounds, with `first` (which spins,
 * its buffers buf) resident: each ready warp of each resident CTA runs a short
 * slice per round; a CTA that ends frees its slot for the next of the grid.
 * Stuck when nothing was written and no CTA came or went for two rounds and
 * stepping every resident CTA's warps brings each back to its state
 * (coop_livelock).  Takes over buf. */
static int run_resident(const Launch *L, Cta *first, CtaBuf *buf, uint64_t next,
                        uint64_t fit, int64_t budget, KernelStats *ks)
{
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	uint64_t n = ncta - next + 1 < fit ? ncta - next + 1 : fit;   /* slots */
	CtaBuf *bufs = xcalloc(n, sizeof *bufs);
	Cta *cs = xcalloc(n, sizeof *cs);
	Cluster *cls = xcalloc(n, sizeof *cls);
	bufs[0] = *buf;
	cs[0] = *first;
	for (uint64_t s = 0; s < n; s++) {
		if (s) {
			ctabuf_init(&bufs[s], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
			cta_start(&cs[s], L, next++, &bufs[s]);
		}
		cls[s] = (Cluster){.n = 1};
		cls[s].cta[0] = &cs[s], cs[s].cl = &cls[s];
	}
	int rc = RF_OK, quiet = 0;
	uint64_t writes = 0;
	for (;;) {
		int ran = 0, moved = 0;
		uint64_t nw = 0;
		for (uint64_t s = 0; s < n && rc == RF_OK; s++) {
			if (!cs[s].live_warps) continue;
			rc = coop_round(&cs[s], &budget, &ran);
			if (rc == RF_OK && !cs[s].live_warps) {       /* done: the next takes its slot */
				cta_count(&cs[s], ks);
				moved = 1;
				if (next < ncta) cta_start(&cs[s], L, next++, &bufs[s]), cs[s].cl = &cls[s];
			}
			nw += cta_writes(&cs[s]);
		}
		int alive = 0;
		for (uint64_t s = 0; s < n; s++) alive |= cs[s].live_warps != 0;
		if (rc || !alive) break;
		quiet = ran && !moved && nw == writes ? quiet + 1 : 0;
		writes = nw;
		if (quiet >= 2) {
			int r = coop_livelock(cs, n, &budget);
			if (r > 0 && next < ncta)
				err_append("\n  %llu of the grid's %llu blocks are resident, as many as the GPU "
				           "holds; the other %llu cannot start before these end",
				           (unsigned long long)n, (unsigned long long)ncta,
				           (unsigned long long)(ncta - next));
			if (r) {
				rc = RF_ERUNTIME;
				break;
			}
			quiet = 0;
		}
	}
	for (uint64_t s = 0; s < n; s++) {
		if (rc != RF_OK && cs[s].live_warps) cta_count(&cs[s], ks);
		ctabuf_free(&bufs[s]);
	}
	free(bufs);
	free(cs);
	free(cls);
	return rc;
}

void cluster_members(const Launch *L, uint64_t k, uint64_t *ids)
{
	const Dim3 *s = &L->cluster, *g = &L->grid;
	uint64_t nx = g->x / s->x, ny = g->y / s->y;
	uint64_t x0 = k % nx * s->x, y0 = k / nx % ny * s->y, z0 = k / (nx * ny) * s->z;
	for (uint32_t r = 0; r < L->csize; r++) {
		uint64_t x = x0 + r % s->x, y = y0 + r / s->x % s->y, z = z0 + r / (s->x * s->y);
		ids[r] = x + y * g->x + z * (uint64_t)g->x * g->y;
	}
}

/* functional mode, thread-block clusters: cluster after cluster, the CTAs of
 * one resident together and run in rounds as a cooperative grid's are; a
 * round in which no warp of the cluster could run and no barrier released
 * is a deadlock */
static int run_clusters(const Launch *L, int64_t budget, KernelStats *ks)
{
	enum { SLICE = 1 << 10 };
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32), n = (int32_t)L->csize;
	uint64_t ncl = (uint64_t)L->grid.x * L->grid.y * L->grid.z / L->csize, ids[CLUSTER_MAX];
	CtaBuf bufs[CLUSTER_MAX];
	Cta cs[CLUSTER_MAX];
	for (int32_t r = 0; r < n; r++)
		ctabuf_init(&bufs[r], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
	int rc = RF_OK;
	for (uint64_t k = 0; k < ncl && rc == RF_OK; k++) {
		Cluster cl = {.n = n};
		cluster_members(L, k, ids);
		for (int32_t r = 0; r < n; r++) {
			cta_start(&cs[r], L, ids[r], &bufs[r]);
			cs[r].cl = &cl, cl.cta[r] = &cs[r];
		}
		int quiet = 0;
		uint64_t writes = 0;
		int64_t live = -1;
		for (;;) {
			int ran = 0, any;
			uint64_t nw = 0;
			int64_t alive = 0;
			for (int32_t r = 0; r < n && rc == RF_OK; r++) {
				if (cs[r].live_warps) rc = run_slices(&cs[r], &budget, SLICE, &any), ran |= any;
				nw += cta_writes(&cs[r]);
				alive += cs[r].live_warps;
			}
			if (rc || !alive) break;
			if (!ran) {                       /* everyone waits: release, or deadlock */
				int ready = 0, stuck = -1;
				for (int32_t r = 0; r < n; r++) {
					cta_release_barriers(&cs[r]);
					for (int32_t i = 0; i < cs[r].nwarps; i++)
						ready |= cs[r].warps[i].state == W_READY;
					if (stuck < 0 && cs[r].live_warps) stuck = r;
				}
				if (!ready) {
					deadlock_report(&cs[stuck]);
					rc = RF_ERUNTIME;
				}
				continue;
			}
			quiet = nw == writes && alive == live ? quiet + 1 : 0;
			writes = nw, live = alive;
			if (quiet >= 2) {
				if (coop_livelock(cs, (uint64_t)n, &budget)) rc = RF_ERUNTIME;
				quiet = 0;
			}
		}
		for (int32_t r = 0; r < n; r++) cta_count(&cs[r], ks);
	}
	for (int32_t r = 0; r < n; r++) ctabuf_free(&bufs[r]);
	return rc;
}

/* one round of a cooperative grid: each ready warp of CTA c runs a slice.
 * *ran: some warp ran; RF_OK or RF_ERUNTIME */
static int coop_round(Cta *c, int64_t *budget, int *ran)
{
	enum { COOP_SLICE = 1 << 10 };   /* short: a warp spinning at grid.sync() yields soon */
	int any;
	if (run_slices(c, budget, COOP_SLICE, &any) != RF_OK) return RF_ERUNTIME;
	if (!any && c->live_warps && release_or_deadlock(c) != RF_OK)   /* all at a barrier */
		return RF_ERUNTIME;
	*ran |= any;
	return RF_OK;
}

/* no CTA can end: stepping each one's ready warps brings them back to where
 * they were with nothing written (livelock.c); 1, 0 (one moved on), -1 fault */
static int coop_livelock(Cta *cs, uint64_t ncta, int64_t *budget)
{
	int stuck = -2;              /* the first CTA with ready warps, for the report */
	for (uint64_t i = 0; i < ncta; i++) {
		if (!cs[i].live_warps) continue;
		int r = livelock_cta(&cs[i], budget);
		if (r <= 0) return r;
		if (stuck == -2) stuck = (int)i;
	}
	if (stuck >= 0) livelock_report(&cs[stuck]);
	return stuck >= 0;
}

/* functional mode, cooperative launch: every CTA resident, run in rounds */
static int run_coop_grid(const Launch *L, int64_t budget, KernelStats *ks)
{
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	CtaBuf *bufs = xcalloc(ncta, sizeof *bufs);
	Cta *cs = xcalloc(ncta, sizeof *cs);
	uint64_t ncl = ncta / L->csize, ids[CLUSTER_MAX];
	Cluster *cls = xcalloc(ncl, sizeof *cls);
	for (uint64_t id = 0; id < ncta; id++) {
		ctabuf_init(&bufs[id], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
		cta_start(&cs[id], L, id, &bufs[id]);
	}
	for (uint64_t k = 0; k < ncl; k++) {
		cluster_members(L, k, ids);
		cls[k].n = (int32_t)L->csize;
		for (uint32_t r = 0; r < L->csize; r++) cls[k].cta[r] = &cs[ids[r]], cs[ids[r]].cl = &cls[k];
	}
	int rc = RF_OK, quiet = 0;
	uint64_t writes = 0;
	int64_t live = -1;
	for (;;) {
		int ran = 0;
		uint64_t n = 0;
		int64_t alive = 0;
		for (uint64_t id = 0; id < ncta && rc == RF_OK; id++) {
			if (cs[id].live_warps) rc = coop_round(&cs[id], &budget, &ran);
			n += cta_writes(&cs[id]);
			alive += cs[id].live_warps;
		}
		if (rc || !alive) break;
		quiet = ran && n == writes && alive == live ? quiet + 1 : 0;
		writes = n, live = alive;
		if (quiet >= 2) {
			int r = coop_livelock(cs, ncta, &budget);
			if (r) {
				rc = RF_ERUNTIME;
				break;
			}
			quiet = 0;
		}
	}
	for (uint64_t id = 0; id < ncta; id++) {
		cta_count(&cs[id], ks);
		ctabuf_free(&bufs[id]);
	}
	free(bufs);
	free(cs);
	free(cls);
	return rc;
}

/* CTAs of the launch the GPU holds at once: the occupancy (without the
 * register limit under compiler.regalloc = 0, whose virtual registers are
 * no machine resource, as in timing.c) times the SMs; *o and *per_sm say why */
static uint64_t resident_ctas(const Gpu *g, const Launch *L, Occupancy *o, int32_t *per_sm)
{
	occupancy_compute(&g->cfg, (int32_t)L->nthreads, L->img->regs_per_thread,
	                  (int64_t)L->img->shared_static + L->dyn_shmem, o);
	*per_sm = o->ctas_per_sm;
	if (!g->cfg.compiler_regalloc) {
		*per_sm = o->by[OCC_THREADS];
		if (o->by[OCC_CTAS] < *per_sm) *per_sm = o->by[OCC_CTAS];
		if (o->by[OCC_SHARED] < *per_sm) *per_sm = o->by[OCC_SHARED];
	}
	return (uint64_t)*per_sm * (uint64_t)g->cfg.sm_count;
}

/* a cooperative grid fits the GPU at once */
static int check_coop(const Gpu *g, const Launch *L)
{
	Occupancy o;
	int32_t per_sm;
	uint64_t fit = resident_ctas(g, L, &o, &per_sm);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	if (ncta <= fit) return RF_OK;
	gpu_set_fault(FAULT_COOP_TOO_LARGE);
	err_set("cooperative launch of %s: %llu blocks cannot all be resident at once: %d blocks "
	        "of %u threads per SM (limited by %s) x %lld SMs = %llu "
	        "(cudaOccupancyMaxActiveBlocksPerMultiprocessor sizes a cooperative grid)",
	        L->kname, (unsigned long long)ncta, per_sm, L->nthreads,
	        occ_limit_name[o.limiter], (long long)g->cfg.sm_count, (unsigned long long)fit);
	return RF_EINPUT;
}

/* The Image a launch runs.  The RegMutex pass chooses |Es| from the
 * occupancy, which depends on the block size and the shared memory; at load
 * time it had to assume them (regmutex.c).  A launch with another shape
 * gets the kernel recompiled from the program's text for that shape, once
 * per shape.  NULL with err_set when the pass refuses the shape: a forced
 * regmutex.es that leaves no pool section there (deadlock rule 1). */
static const Image *launch_image(const Gpu *g, Program *p, int k, int32_t threads,
                                 uint32_t dyn)
{
	const Func *f = &p->m->funcs[p->kernels[k]];
	if (!regmutex_enabled(&g->cfg) || !f->rm_threads ||
	    (f->rm_threads == threads && !dyn))
		return p->img[k];
	for (int32_t i = 0; i < p->nvar; i++)
		if (p->var[i].k == k && p->var[i].threads == threads && p->var[i].dyn == dyn)
			return p->var[i].img;
	Module *m = ptx_parse(p->src, strlen(p->src), p->m->filename);
	if (!m) return NULL;
	m->launch_threads = threads, m->launch_dyn_shared = dyn, m->launch_func = p->kernels[k];
	Image *img = NULL;
	if (pass_run(m, &g->cfg) || !(img = image_build_in(p, m, p->kernels[k]))) {
		ir_free(m);
		return NULL;
	}
	p->var = xrealloc(p->var, sizeof *p->var * (size_t)(p->nvar + 1));
	p->var[p->nvar++] = (struct LaunchVariant){k, threads, dyn, m, img};
	return img;
}

static int launch(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
                  const void *params, size_t psize, int coop, Dim3 cluster);

/* the launches the grid just finished made, those from v[mark] on, tail
 * launches last: each runs one level deeper (and runs its own children before
 * the next starts); after a failure (rc) the rest are dropped.  Frees their
 * parameter buffers.  A child the launch checks refuse fails its host launch
 * as a fault would. */
static int run_children(Gpu *g, Program *p, int32_t mark, int rc)
{
	Cdp *cd = &g->cdp;
	int32_t end = cd->n;
	for (int32_t j = 0; j < 2 * (end - mark); j++) {
		int32_t i = mark + j % (end - mark);
		if (cd->v[i].tail != (j >= end - mark)) continue;   /* tail launches: second pass */
		CdpLaunch e = cd->v[i];          /* a copy: the children's launches move v */
		if (e.launched) cd->npending--;
		uint32_t size = p->img[e.k]->param_bytes;
		uint8_t *params = xmalloc(size ? size : 1);
		memcpy(params, gpu_mem_host(g, e.buf, size ? size : 1), size);
		gmem_heap_free(&g->gm, e.buf);
		if (e.launched && rc == RF_OK) {
			cd->depth++;
			rc = launch(g, p, e.k, e.grid, e.block, e.dyn, params, size, 0, (Dim3){0, 0, 0});
			cd->depth--;
			if (rc == RF_EINPUT) {     /* refused, but its parent ran: the host's launch failed */
				char why[1024];
				snprintf(why, sizeof why, "%s", err_msg());
				err_set("device-side launch (dynamic parallelism): %s", why);
				rc = RF_ERUNTIME;
			}
		}
		free(params);
	}
	cd->n = mark;
	return rc;
}

/* the launch's clusters: asked for (cluster, non-zero), or the kernel's
 * .reqnctapercluster (__cluster_dims__), or one CTA each */
static int set_clusters(const Program *p, int k, Launch *L, Dim3 cluster, int coop)
{
	const Func *f = &p->m->funcs[p->kernels[k]];
	const int32_t *rq = f->reqnctapercluster;
	Dim3 want = {rq[0] > 0 ? (uint32_t)rq[0] : 0, rq[1] > 0 ? (uint32_t)rq[1] : 1,
	             rq[2] > 0 ? (uint32_t)rq[2] : 1};
	if (cluster.x) {
		if (!cluster.y) cluster.y = 1;
		if (!cluster.z) cluster.z = 1;
		if (want.x && (want.x != cluster.x || want.y != cluster.y || want.z != cluster.z)) {
			err_set("launch of %s: clusters of (%u,%u,%u) blocks asked for, but the kernel "
			        "was compiled for (%u,%u,%u) (.reqnctapercluster, __cluster_dims__)",
			        L->kname, cluster.x, cluster.y, cluster.z, want.x, want.y, want.z);
			return RF_EINPUT;
		}
		want = cluster;
	}
	L->explicit_cluster = want.x != 0 || (f->attr & ATTR_EXPLICIT_CLUSTER);
	if (!want.x) want = (Dim3){1, 1, 1};
	uint64_t n = (uint64_t)want.x * want.y * want.z;
	if (n > CLUSTER_MAX) {
		err_set("launch of %s: clusters of (%u,%u,%u) = %llu blocks; at most %d", L->kname,
		        want.x, want.y, want.z, (unsigned long long)n, CLUSTER_MAX);
		return RF_EINPUT;
	}
	if (L->grid.x % want.x || L->grid.y % want.y || L->grid.z % want.z) {
		err_set("launch of %s: grid (%u,%u,%u) is not a whole number of clusters of "
		        "(%u,%u,%u) blocks", L->kname, L->grid.x, L->grid.y, L->grid.z, want.x,
		        want.y, want.z);
		return RF_EINPUT;
	}
	if (coop && n > 1) {
		err_set("launch of %s: a cooperative launch with thread-block clusters is not "
		        "supported by rfsim", L->kname);
		return RF_EINPUT;
	}
	L->cluster = want;
	L->csize = (uint32_t)n;
	return RF_OK;
}

static int launch(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
                  const void *params, size_t psize, int coop, Dim3 cluster)
{
	if (k < 0 || k >= p->nkernel) {
		err_set("no kernel %d in this program", k);
		return RF_EINPUT;
	}
	gpu_set_fault(FAULT_NONE);         /* what this launch's failure was, if it fails */
	int rc = check_launch(g, p, k, grid, block, dyn, psize);
	if (rc) {
		gpu_set_fault(FAULT_BAD_LAUNCH);
		return rc;
	}
	const Image *img = launch_image(g, p, k, (int32_t)(block.x * block.y * block.z), dyn);
	if (!img) {
		gpu_set_fault(FAULT_CONFIG);
		return RF_EINPUT;
	}
	Launch L = {0};
	L.img = img;
	L.kname = prog_kernel_name(p, k);
	L.file = p->m->filename;
	L.src = p->src;
	L.grid = grid, L.block = block;
	L.nthreads = block.x * block.y * block.z;
	L.dyn_shmem = dyn;
	L.params = params;
	L.param_bytes = img->param_bytes;
	L.gm = &g->gm;
	L.cbank = p->cbank;
	L.cbank_bytes = p->cbank_bytes;
	L.tex = g->tex;
	L.ntex = g->ntex;
	L.nsm = (int32_t)g->cfg.sm_count;
	L.clock_ghz = (double)g->cfg.gpu_clock_mhz / 1000.0;
	/* two limits: sim.watchdog per kernel, sim.max_warp_insts for the whole run */
	int64_t budget = INT64_MAX;
	char why[160] = "";
	if (g->cfg.sim_watchdog > 0) {
		budget = g->cfg.sim_watchdog;
		snprintf(why, sizeof why, "config key sim.watchdog = %lld warp instructions per kernel",
		         (long long)g->cfg.sim_watchdog);
	}
	if (g->cfg.sim_max_warp_insts > 0 && g->cfg.sim_max_warp_insts - g->total_insts < budget) {
		budget = g->cfg.sim_max_warp_insts - g->total_insts;
		snprintf(why, sizeof why, "config key sim.max_warp_insts = %lld for the whole run",
		         (long long)g->cfg.sim_max_warp_insts);
	}
	L.limit_why = why;
	L.cdp = &g->cdp;
	L.mem = &g->ms;
	if ((rc = set_clusters(p, k, &L, cluster, coop))) {
		gpu_set_fault(FAULT_BAD_LAUNCH);
		return rc;
	}
	if (coop && (rc = check_coop(g, &L))) return rc;
	if (coop) {                      /* grid.sync()'s counter: 4 bytes at +4, zeroed */
		if (gpu_mem_alloc(g, 16, &L.grid_ws)) return RF_EINPUT;
		memset(gpu_mem_host(g, L.grid_ws, 16), 0, 16);
	}
	g->gm.warned = 0;
	KernelStats ks = {0};
	snprintf(ks.name, sizeof ks.name, "%s", L.kname);
	ks.grid = grid, ks.block = block, ks.dyn_shmem = dyn;
	ks.regs_per_thread = img->regs_per_thread;
	const Program *caller = g->cdp.p;   /* a host launch may come from another program */
	int32_t mark = g->cdp.n;
	g->cdp.p = p;
	double t0 = now_sec();
	if (g->cfg.sim_mode == SIM_MODE_TIMING) rc = timing_launch(&L, &g->cfg, budget, &ks);
	else if (coop) rc = run_coop_grid(&L, budget, &ks);
	else {
		Occupancy o;
		int32_t per_sm;
		rc = run_grid(&L, resident_ctas(g, &L, &o, &per_sm), budget, &ks);
	}
	if (coop) gpu_mem_free(g, L.grid_ws);
	ks.sim_seconds = now_sec() - t0;
	g->total_insts += (int64_t)ks.warp_insts;
	VEC_RESERVE(g->stats, g->capstats, (size_t)g->nstats + 1);
	int32_t at = g->nstats;
	g->stats[g->nstats++] = ks;
	rc = run_children(g, p, mark, rc);
	if (g->cfg.sim_digest && rc == RF_OK) {
		g->stats[at].mem_digest = gmem_digest(&g->gm);
		g->stats[at].digested = 1;
	}
	g->cdp.p = caller;
	return rc;
}

int gpu_launch(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
               const void *params, size_t psize)
{
	return launch(g, p, k, grid, block, dyn, params, psize, 0, (Dim3){0, 0, 0});
}

int gpu_launch_ex(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
                  const void *params, size_t psize, int coop, Dim3 cluster)
{
	return launch(g, p, k, grid, block, dyn, params, psize, coop, cluster);
}

int gpu_launch_coop(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
                    const void *params, size_t psize)
{
	return launch(g, p, k, grid, block, dyn, params, psize, 1, (Dim3){0, 0, 0});
}
