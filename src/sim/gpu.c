/*
 * gpu.c -- the simulated GPU behind gpu.h: device memory, program loading
 * and placement of module variables, and launches: checked (launch.c),
 * then run in functional mode (src/func/grid.c) or timing mode.
 *
 * Functional mode (sim.mode = functional) runs the grid on the functional
 * core alone (src/func/grid.c: the CTAs one after another, or a cooperative
 * grid's all at once).
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
#include "func/grid.h"
#include "sim/launch.h"
#include "func/prog.h"
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
	int fault;               /* FAULT_*: what stopped the last launch (Launch.fault) */
	double run_t0;           /* host time its first timing kernel began (Launch.run_t0) */
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

int gpu_last_fault(const Gpu *g) { return g->fault; }

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
	Placement pl = prog_placement(p);
	for (int32_t i = 0; i < m->nfunc; i++) {
		if (!(m->funcs[i].attr & ATTR_ENTRY) || !m->funcs[i].has_body) continue;
		p->kernels[p->nkernel] = i;
		p->img[p->nkernel] = image_build(&pl, m, i);
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

/* ---- launch ------------------------------------------------------------------ */

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
	Placement pl = prog_placement(p);
	if (pass_run(m, &g->cfg) || !(img = image_build(&pl, m, p->kernels[k]))) {
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

static int launch(Gpu *g, Program *p, int k, Dim3 grid, Dim3 block, uint32_t dyn,
                  const void *params, size_t psize, int coop, Dim3 cluster)
{
	if (k < 0 || k >= p->nkernel) {
		err_set("no kernel %d in this program", k);
		return RF_EINPUT;
	}
	g->fault = FAULT_NONE;             /* what this launch's failure was, if it fails */
	int rc = launch_check(&g->cfg, p, k, grid, block, dyn, psize);
	if (rc) {
		g->fault = FAULT_BAD_LAUNCH;
		return rc;
	}
	const Image *img = launch_image(g, p, k, (int32_t)(block.x * block.y * block.z), dyn);
	if (!img) {
		g->fault = FAULT_CONFIG;
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
	L.fault = &g->fault;
	L.run_t0 = &g->run_t0;
	L.cdp = &g->cdp;
	L.mem = &g->ms;
	if ((rc = launch_set_clusters(p, k, &L, cluster, coop))) {
		g->fault = FAULT_BAD_LAUNCH;
		return rc;
	}
	if (coop && (rc = launch_check_coop(&g->cfg, &L))) return rc;
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
	else {
		GridCount n = {0};
		Occupancy o;
		int32_t per_sm;
		rc = coop ? grid_run_coop(&L, budget, &n)
		          : grid_run(&L, launch_resident_ctas(&g->cfg, &L, &o, &per_sm), budget, &n);
		ks.warp_insts += n.warp_insts;
		ks.thread_insts += n.thread_insts;
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
