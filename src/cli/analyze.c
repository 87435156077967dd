/*
 * analyze.c -- `rfsim analyze FILE.ptx|WORKLOAD`: what the compiler half
 * of rfsim makes of each kernel, without running it.
 *
 * The PTX (a file, or a built-in workload's embedded PTX) goes through
 * the same pipeline as `rfsim run` (pass.c, under the same -c/-s config,
 * so `-s maxrregcount=24` shows the spills a run would execute), and for
 * each kernel this prints: registers per thread (callees included, as
 * ptxas counts), the cap and what set it, spills, the control-flow graph's
 * size, occupancy on the configured SM and the resource that limits it,
 * the live-register profile (percentiles of live 32-bit registers over
 * the static instructions, per thread and warp-level: RegMutex Figure 1),
 * and with --listing the allocated code annotated with live counts and
 * last uses.  --json writes {"kernels": [...]} for scripts (docs/
 * workloads.md is generated from it).
 *
 * Register sharing (regshare.c; Jatala et al.): at regshare.threshold t,
 * the shared pairs S and unshared CTAs U of §4.1, CTAs per SM with and
 * without sharing, the unshared registers per thread, the RPO position of
 * the first instruction naming a shared register before and after the
 * reordering of §5.2 (whether or not regshare.enable ran it: if not, the
 * "after" is what it would give), and the §6 storage in bits.
 *
 * LTRF (ltrf.partition interval or strand; interval.c, prefetch.c): the
 * subgraphs, and the code-size overhead of their PREFETCHes in both
 * encodings of §3.2, kernel and callees; in JSON, "cfg" is then the block
 * graph after the cuts the partition made, "intervals" lists each subgraph
 * (id, entry_block, blocks, regs, preds) and "ltrf" holds the rest.
 *
 * RegMutex (regmutex.c; Khorasani et al. §III): |Bs| and |Es|, resident warps
 * and pool sections with and without it, the static acquire/release/move
 * counts when regmutex.enable ran the pass (else the |Es| it would pick),
 * and the §III-B storage in bits; in JSON, the "regmutex" object.
 *
 * Occupancy needs a CTA size, which PTX does not fix: -b gives it, else
 * .reqntid or .maxntid, else 256 threads.  Static shared memory is the
 * module's .shared variables plus those the kernel and its callees
 * declare; --shared adds dynamic shared memory.
 *
 * Options are parsed here (not in args.c): analyze shares only -c and -s
 * with the other commands, and hands those to args_config.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/interval.h"
#include "analysis/listing.h"
#include "analysis/occupancy.h"
#include "analysis/pass.h"
#include "analysis/regmutex.h"
#include "analysis/regshare.h"
#include "base/base.h"
#include "cli/cli.h"
#include "base/json.h"
#include "ptx/ptx.h"
#include "../../workloads/workloads.h"

typedef struct AOpts {
	const char *what;        /* FILE.ptx or WORKLOAD */
	const char *json;        /* --json FILE */
	const char *kernel;      /* -k NAME */
	int listing;             /* --listing */
	int32_t threads;         /* -b, 0 = from the PTX or 256 */
	int64_t dyn_shared;      /* --shared */
	Opts cfg;                /* -c, -s */
} AOpts;

typedef struct KInfo {       /* one kernel's numbers */
	const Func *f;
	int32_t fi;
	RaStats ra;              /* summed over the kernel and its callees */
	const PassFunc *pf;      /* the kernel's own */
	double seconds;
	int32_t ninsn, nblock, nloop, maxdepth, reducible;
	int32_t threads;
	int64_t shared;
	Occupancy occ;
	LiveProfile prof[2];     /* per thread, warp-level */
	CodeSize ltrf_size;      /* PREFETCH code size, kernel and callees (prefetch.c) */
	int ltrf_encoding;       /* ltrf.prefetch_encoding */
	RsLaunch rs;             /* register sharing at regshare.threshold */
	int32_t touch[2];        /* first shared-register touch: before, after reordering */
	int64_t rs_bits;         /* storage per SM for register sharing (§6) */
	RmStats rm;              /* RegMutex: the pass's numbers, or its |Es| pick alone */
	int64_t rm_bits;         /* storage per SM for RegMutex (§III-B) */
	int32_t max_warps;       /* sm.max_warps, for RegMutex's occupancy */
	int rm_applied;          /* regmutex.enable transformed the kernel */
} KInfo;

static void help(FILE *f)
{
	fputs("usage: rfsim analyze FILE.ptx|WORKLOAD [-c CONFIG] [-s KEY=VALUE]...\n"
	      "                     [-k KERNEL] [-b THREADS] [--shared BYTES]\n"
	      "                     [--json FILE] [--listing]\n\n"
	      "Per kernel: registers per thread, spills, basic blocks and loops, occupancy\n"
	      "and its limiter on the configured SM, the live-register profile, and register\n"
	      "sharing (regshare.threshold): CTAs per SM and first shared-register touch.\n\n"
	      "options:\n"
	      "  -c, --config NAME|FILE  configs/NAME.cfg or a config file [fermi-gtx480]\n"
	      "  -s, --set KEY=VALUE     set a config key (maxrregcount, compiler.*, ...)\n"
	      "  -k, --kernel NAME       only this kernel\n"
	      "  -b, --block X[,Y[,Z]]   threads per CTA for occupancy [.reqntid, .maxntid, 256]\n"
	      "      --shared BYTES      dynamic shared memory per CTA [0]\n"
	      "      --json FILE         write {\"kernels\": [...]} to FILE ('-': stdout)\n"
	      "      --listing           the allocated code with live counts and last uses\n", f);
}

static int need(int argc, char **argv, int *i, const char **v)
{
	if (*i + 1 >= argc) return usage_error("option %s needs a value", argv[*i]);
	*v = argv[++*i];
	return RF_OK;
}

static int parse(int argc, char **argv, AOpts *a, int *helped)
{
	memset(a, 0, sizeof *a);
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i], *v = NULL;
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			*helped = 1;
			return RF_OK;
		}
		if (!strcmp(s, "--listing")) {
			a->listing = 1;
			continue;
		}
		int isc = !strcmp(s, "-c") || !strcmp(s, "--config"), iss = !strcmp(s, "-s") ||
		          !strcmp(s, "--set");
		int isk = !strcmp(s, "-k") || !strcmp(s, "--kernel"), isb = !strcmp(s, "-b") ||
		          !strcmp(s, "--block");
		int isj = !strcmp(s, "--json"), ish = !strcmp(s, "--shared");
		if (!(isc || iss || isk || isb || isj || ish)) {
			if (s[0] == '-' && s[1]) return usage_error("unknown option '%s'", s);
			if (a->what) return usage_error("analyze takes one PTX file or workload");
			a->what = s;
			continue;
		}
		int rc = need(argc, argv, &i, &v);
		if (rc) return rc;
		Dim3 d;
		uint64_t u;
		if (isc) a->cfg.config = v;
		if (iss) {
			a->cfg.sets = xrealloc(a->cfg.sets, sizeof(char *) * (size_t)(a->cfg.nsets + 1));
			a->cfg.sets[a->cfg.nsets++] = v;
		}
		if (isk) a->kernel = v;
		if (isj) a->json = v;
		if (isb && parse_dim3(v, &d)) return usage_error("bad -b '%s'", v);
		if (isb) a->threads = (int32_t)(d.x * d.y * d.z);
		if (ish && parse_u64(v, &u)) return usage_error("bad --shared '%s'", v);
		if (ish) a->dyn_shared = (int64_t)u;
	}
	if (!a->what) return usage_error("analyze needs a PTX file or a workload name");
	return RF_OK;
}

static char *load_text(const char *what, size_t *len)
{
	size_t n = strlen(what);
	if (strchr(what, '/') || (n > 4 && !strcmp(what + n - 4, ".ptx"))) {
		char *t = read_file(what, FILE_PTX, len);
		if (!t) fail(RF_EINPUT, "%s", err_msg());
		return t;
	}
	const Workload *w = workload_find(what);
	if (!w) {
		fail(RF_EINPUT, "unknown workload '%s' (rfsim list)", what);
		return NULL;
	}
	*len = strlen(w->ptx);
	return xstrdup(w->ptx);
}

/* ---- per kernel ------------------------------------------------------------- */

static int64_t align_up(int64_t v, int64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static int64_t sym_al(const Sym *s)
{
	if (s->align) return s->align;
	int64_t e = ptxtype_size((PtxType)s->type) * (s->vec ? s->vec : 1);
	return e ? e : 1;
}

/* static shared bytes: the module's .shared, then the reachable functions' */
static int64_t static_shared(const Module *m, const uint8_t *seen)
{
	int64_t off = 0;
	for (int32_t k = 0; k < m->nglobal; k++) {
		const Sym *s = &m->syms[m->globals[k]];
		if (s->kind != SYM_VAR || s->space != SP_SHARED || s->count < 0) continue;
		off = align_up(off, sym_al(s)) + sym_size(s);
	}
	for (int32_t fi = 0; fi < m->nfunc; fi++)
		for (int32_t j = 0; seen[fi] && j < m->funcs[fi].nlocal; j++) {
			const Sym *s = &m->syms[m->funcs[fi].locals[j]];
			if (s->space != SP_SHARED || s->count < 0) continue;
			off = align_up(off, sym_al(s)) + sym_size(s);
		}
	return off;
}

static void sum_stats(RaStats *t, const RaStats *s)
{
	t->spilled += s->spilled, t->spill_bytes += s->spill_bytes;
	t->spill_loads += s->spill_loads, t->spill_stores += s->spill_stores;
	t->remat += s->remat, t->remat_ins += s->remat_ins, t->pred_spilled += s->pred_spilled;
	t->moves += s->moves, t->moves_removed += s->moves_removed;
}

/* register sharing: launch, the reordering's figure of merit, storage */
static void regshare_info(const Config *cfg, const PassFunc *pf, KInfo *k)
{
	const Func *f = k->f;
	regshare_launch(cfg, &k->occ, cfg->regshare_threshold, &k->rs);
	k->rs_bits = regshare_hw_bits((int32_t)cfg->sm_max_ctas, (int32_t)cfg->sm_max_warps);
	k->touch[0] = k->touch[1] = -1;
	if (!f->phys) return;
	int32_t u = k->rs.unshared_regs;
	if (pf->rs_perm) {           /* the pass renamed the code: undo it for "before" */
		int32_t *inv = xmalloc(sizeof(int32_t) * ((size_t)f->nphys + 1));
		for (int32_t p = 0; p < f->nphys; p++) inv[pf->rs_perm[p]] = p;
		k->touch[0] = regshare_first_touch(f, inv, u);
		k->touch[1] = regshare_first_touch(f, NULL, u);
		free(inv);
	} else {                     /* what the pass would do */
		int32_t *perm = regshare_plan(f);
		k->touch[0] = regshare_first_touch(f, NULL, u);
		k->touch[1] = regshare_first_touch(f, perm, u);
		free(perm);
	}
}

/* RegMutex: what the pass did (regmutex.enable), else the |Es| it would pick
   for this CTA size and shared memory (no code changed, so no counts) */
static void regmutex_info(const Config *cfg, KInfo *k)
{
	const Func *f = k->f;
	k->rm = k->pf->rm;
	k->rm_bits = regmutex_storage_bits(cfg, (int)cfg->regmutex_paired);
	k->max_warps = (int32_t)cfg->sm_max_warps;
	k->rm_applied = regmutex_enabled(cfg) && k->rm.pick.es > 0;
	if (!k->rm.pick.warps_base)       /* the pass skipped it (calls, not a kernel) */
		k->rm.pick.warps_base = k->rm.pick.warps_rm = k->occ.warps_per_sm;
	if (regmutex_enabled(cfg) || !f->phys || !(f->attr & ATTR_ENTRY)) return;
	for (int32_t i = 0; i < f->nins; i++)
		if (f->ins[i].op == OP_CALL) {
			k->rm.pick.why = "calls (left out)";
			k->rm.pick.regs = k->rm.pick.bs = f->regs_per_thread;
			return;
		}
	int32_t *need = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t min_bs = regmutex_need(f, need);
	free(need);
	regmutex_pick(cfg, f->regs_per_thread, k->threads, k->shared, min_bs,
	              (int32_t)cfg->regmutex_es, (int)cfg->regmutex_paired, &k->rm.pick);
}

static void kernel_info(const Module *m, int32_t fi, const PassReport *pr, const Config *cfg,
                        const AOpts *a, KInfo *k)
{
	const Func *f = &m->funcs[fi];
	memset(k, 0, sizeof *k);
	k->f = f, k->fi = fi, k->pf = &pr->funcs[fi];
	uint8_t *seen = xmalloc((size_t)m->nfunc + 1);
	pass_reachable(m, fi, seen);
	for (int32_t j = 0; j < m->nfunc; j++)
		if (seen[j]) sum_stats(&k->ra, &pr->funcs[j].ra), k->seconds += pr->funcs[j].seconds;
	k->ltrf_encoding = (int)cfg->ltrf_prefetch_encoding;
	for (int32_t j = 0; k->pf->part && j < m->nfunc; j++)
		if (seen[j]) prefetch_code_size(pr->funcs[j].part, &m->funcs[j], (int32_t)cfg->ltrf_ins_bits,
		                                (int32_t)cfg->ltrf_vector_bits, &k->ltrf_size);
	Cfg *c = cfg_build(f);
	k->nblock = c->nblock, k->nloop = c->nloop, k->reducible = c->reducible;
	for (int32_t i = 0; i < c->nloop; i++)
		if (c->loops[i].depth > k->maxdepth) k->maxdepth = c->loops[i].depth;
	cfg_free(c);
	for (int32_t i = 0; i < f->nins; i++) k->ninsn += !(op_info[f->ins[i].op].flags & OPF_PSEUDO);
	int32_t t = f->reqntid[0] ? f->reqntid[0] * (f->reqntid[1] ? f->reqntid[1] : 1) *
	                            (f->reqntid[2] ? f->reqntid[2] : 1) : 0;
	if (!t && f->maxntid[0])
		t = f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
		    (f->maxntid[2] ? f->maxntid[2] : 1);
	k->threads = a->threads ? a->threads : t ? t : 256;
	k->shared = static_shared(m, seen) + a->dyn_shared;
	int32_t regs = f->phys ? f->regs_per_thread : f->nreg;
	occupancy_compute(cfg, k->threads, regs, k->shared, &k->occ);
	listing_profile(f, 0, &k->prof[0]);
	listing_profile(f, 1, &k->prof[1]);
	regshare_info(cfg, k->pf, k);
	regmutex_info(cfg, k);
	free(seen);
}

static void print_profile(const char *what, const LiveProfile *p)
{
	printf("  %-14s", what);
	for (int i = 0; i < NPCT; i++) printf(" p%d %d", listing_pct[i], p->pct[i]);
	printf(", mean %.1f\n", p->mean);
}

static void print_kernel(const Module *m, const KInfo *k, const Config *cfg)
{
	const RaStats *r = &k->pf->ra;
	const Occupancy *o = &k->occ;
	int alloc = k->f->phys != NULL;
	printf("%s (config %s)\n", ir_str(m, m->syms[k->f->sym].name), cfg->name);
	if (alloc)
		printf("  %-14s %d per thread (own %d; pressure %d; cap %d from %s), %d predicates\n",
		       "registers", k->f->regs_per_thread, r->regs, r->pressure, r->cap,
		       k->pf->cap_why, r->preds);
	else
		printf("  %-14s not allocated (%d virtual registers)\n", "registers", k->f->nreg);
	printf("  %-14s %d values to local memory (%d bytes; %d loads, %d stores), "
	       "%d rematerialised, %d predicates in registers\n", "spills", k->ra.spilled,
	       k->ra.spill_bytes, k->ra.spill_loads, k->ra.spill_stores, k->ra.remat,
	       k->ra.pred_spilled);
	printf("  %-14s %d instructions (%d of %d moves removed), %d blocks, %d loops (depth %d), "
	       "%s\n", "code", k->ninsn, r->moves_removed, r->moves, k->nblock, k->nloop,
	       k->maxdepth, k->reducible ? "reducible" : "irreducible");
	printf("  %-14s %d threads per CTA, %lld bytes shared: %d CTAs, %d warps per SM (%.0f%%), "
	       "limited by %s\n", "occupancy", k->threads, (long long)k->shared, o->ctas_per_sm,
	       o->warps_per_sm, 100 * o->occupancy, occ_limit_name[o->limiter]);
	printf("  %-14s by threads %d, ctas %d, shared %d, registers %d\n", "", o->by[OCC_THREADS],
	       o->by[OCC_CTAS], o->by[OCC_SHARED], o->by[OCC_REGISTERS]);
	print_profile("live (thread)", &k->prof[0]);
	print_profile("live (warp)", &k->prof[1]);
	const RsLaunch *rs = &k->rs;
	printf("  %-14s t %.2f: %d shared pairs + %d unshared CTAs = %d CTAs per SM (%d without); "
	       "%d unshared registers per thread\n", "regshare", rs->t, rs->pairs, rs->unshared,
	       rs->ctas, rs->base_ctas, rs->unshared_regs);
	printf("  %-14s first shared register at instruction %d before reordering, %d after "
	       "(RPO; -1 none); %lld bits per SM\n", "", k->touch[0], k->touch[1],
	       (long long)k->rs_bits);
	const RmPick *rp = &k->rm.pick;
	printf("  %-14s |Bs| %d, |Es| %d%s%s; warps per SM %d -> %d, pool %d sections; "
	       "acquires %d, releases %d, moves %d; %lld bits per SM\n", "regmutex", rp->bs, rp->es,
	       rp->why ? ": " : "", rp->why ? rp->why : "", rp->warps_base, rp->warps_rm,
	       rp->sections, k->rm.acquires, k->rm.releases, k->rm.moves, (long long)k->rm_bits);
	if (k->pf->part) prefetch_print(k->pf->part, &k->ltrf_size, stdout);
	printf("  %-14s %.3f ms\n\n", "compile time", k->seconds * 1e3);
}

/* ---- JSON --------------------------------------------------------------------- */

static void json_profile(Json *j, const char *key, const LiveProfile *p)
{
	char name[8];
	json_obj_begin(j, key);
	for (int i = 0; i < NPCT; i++) {
		snprintf(name, sizeof name, "p%d", listing_pct[i]);
		json_int(j, name, p->pct[i]);
	}
	json_num(j, "mean", p->mean);
	json_obj_end(j);
}

static void json_blocks(Json *j, const Cfg *c)
{
	json_int(j, "blocks", c->nblock);
	json_arr_begin(j, "cfg");
	for (int32_t b = 0; b < c->nblock; b++) {
		json_arr_begin(j, NULL);
		for (int32_t s = 0; s < c->blocks[b].nsucc; s++)
			if (c->blocks[b].succ[s] != c->exit) json_int(j, NULL, c->blocks[b].succ[s]);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "exits");
	for (int32_t b = 0; b < c->nblock; b++)
		for (int32_t s = 0; s < c->blocks[b].nsucc; s++)
			if (c->blocks[b].succ[s] == c->exit) json_int(j, NULL, b);
	json_arr_end(j);
}

static void json_cfg(Json *j, const Func *f, const struct Part *part)
{
	Cfg *c = cfg_build(f);
	if (part) prefetch_json_cfg(j, part);   /* the blocks LTRF's subgraphs were formed on */
	else json_blocks(j, c);
	json_int(j, "loops", c->nloop);
	json_bool(j, "reducible", c->reducible);
	cfg_free(c);
}

static void json_regshare(Json *j, const KInfo *k)
{
	const RsLaunch *rs = &k->rs;
	json_obj_begin(j, "regshare");
	json_num(j, "threshold", rs->t);
	json_int(j, "shared_pairs", rs->pairs);
	json_int(j, "unshared_ctas", rs->unshared);
	json_int(j, "ctas_per_sm", rs->ctas);
	json_int(j, "ctas_per_sm_unshared", rs->base_ctas);
	json_int(j, "m_eq4", rs->m_eq4);
	json_int(j, "unshared_regs_per_thread", rs->unshared_regs);
	json_int(j, "warp_unshared_regs", rs->warp_unshared);
	json_int(j, "warp_shared_regs", rs->warp_shared);
	json_int(j, "first_shared_touch_before", k->touch[0]);
	json_int(j, "first_shared_touch_after", k->touch[1]);
	json_bool(j, "reordered", k->pf->rs_perm != NULL);
	json_int(j, "hw_bits_per_sm", k->rs_bits);
	json_obj_end(j);
}

static void json_regmutex(Json *j, const KInfo *k)
{
	const RmPick *rp = &k->rm.pick;
	double nw = k->max_warps ? (double)k->max_warps : 1;
	json_obj_begin(j, "regmutex");
	json_int(j, "bs", rp->bs);
	json_int(j, "es", rp->es);
	json_int(j, "acquires", k->rm.acquires);
	json_int(j, "releases", k->rm.releases);
	json_int(j, "moves", k->rm.moves);
	json_int(j, "renamed", k->rm.renamed);
	json_int(j, "acquired_instructions", k->rm.acq_ins);
	json_int(j, "min_bs_barrier", rp->min_bs);
	json_int(j, "warps_per_sm_base", rp->warps_base);
	json_int(j, "warps_per_sm", rp->warps_rm);
	json_num(j, "occupancy_base", rp->warps_base / nw);
	json_num(j, "occupancy", rp->warps_rm / nw);
	json_int(j, "pool_sections", rp->sections);
	json_str(j, "why_off", rp->why ? rp->why : "");
	json_bool(j, "applied", k->rm_applied);
	json_int(j, "storage_bits", k->rm_bits);
	json_obj_end(j);
}

static void json_kernel(Json *j, const Module *m, const KInfo *k)
{
	const RaStats *r = &k->pf->ra;
	const Occupancy *o = &k->occ;
	json_obj_begin(j, NULL);
	json_str(j, "name", ir_str(m, m->syms[k->f->sym].name));
	json_bool(j, "allocated", k->f->phys != NULL);
	json_int(j, "regs_per_thread", k->f->phys ? k->f->regs_per_thread : k->f->nreg);
	json_int(j, "regs_own", r->regs);
	json_int(j, "preds", r->preds);
	json_int(j, "pressure", r->pressure);
	json_int(j, "cap", r->cap);
	json_str(j, "cap_from", k->pf->cap_why ? k->pf->cap_why : "");
	json_int(j, "spills", k->ra.spilled);
	json_obj_begin(j, "spill");
	json_int(j, "bytes", k->ra.spill_bytes);
	json_int(j, "loads", k->ra.spill_loads);
	json_int(j, "stores", k->ra.spill_stores);
	json_int(j, "remat", k->ra.remat);
	json_int(j, "remat_ins", k->ra.remat_ins);
	json_int(j, "preds_in_regs", k->ra.pred_spilled);
	json_obj_end(j);
	json_int(j, "moves", r->moves);
	json_int(j, "moves_removed", r->moves_removed);
	json_int(j, "instructions", k->ninsn);
	json_cfg(j, k->f, k->pf->part);
	if (k->pf->part) prefetch_json(j, k->pf->part, &k->ltrf_size, k->ltrf_encoding);
	json_int(j, "max_loop_depth", k->maxdepth);
	json_obj_begin(j, "occupancy");
	json_int(j, "threads_per_cta", k->threads);
	json_int(j, "shared_per_cta", k->shared);
	json_int(j, "ctas_per_sm", o->ctas_per_sm);
	json_int(j, "warps_per_sm", o->warps_per_sm);
	json_num(j, "occupancy", o->occupancy);
	json_str(j, "limiter", occ_limit_name[o->limiter]);
	json_obj_begin(j, "ctas_by");
	for (int i = 0; i < NOCCLIMIT; i++) json_int(j, occ_limit_name[i], o->by[i]);
	json_obj_end(j);
	json_obj_end(j);
	json_obj_begin(j, "live_profile");
	json_profile(j, "thread", &k->prof[0]);
	json_profile(j, "warp", &k->prof[1]);
	json_obj_end(j);
	json_regshare(j, k);
	json_regmutex(j, k);
	json_num(j, "seconds", k->seconds);
	json_obj_end(j);
}

/* ---- the command ---------------------------------------------------------------- */

static int report(Module *m, const PassReport *pr, const Config *cfg, const AOpts *a)
{
	FILE *jf = NULL;
	Json *j = NULL;
	if (a->json) {
		jf = strcmp(a->json, "-") ? fopen(a->json, "w") : stdout;
		if (!jf) return fail(RF_EINPUT, "cannot write --json file '%s': %s", a->json,
		                     strerror(errno));
		j = json_open(jf);
		json_obj_begin(j, NULL);
		json_str(j, "file", a->what);
		json_str(j, "config", cfg->name);
		json_arr_begin(j, "kernels");
	}
	FILE *text = jf == stdout ? stderr : stdout;   /* listings stay out of JSON */
	int found = 0;
	for (int32_t fi = 0; fi < m->nfunc; fi++) {
		const Func *f = &m->funcs[fi];
		const char *name = ir_str(m, m->syms[f->sym].name);
		if (!(f->attr & ATTR_ENTRY) || !f->has_body) continue;
		if (a->kernel && strcmp(a->kernel, name)) continue;
		found++;
		KInfo k;
		kernel_info(m, fi, pr, cfg, a, &k);
		if (j) json_kernel(j, m, &k);
		if (!j || jf != stdout) print_kernel(m, &k, cfg);
		if (a->listing) listing_print(m, f, text);
	}
	for (int32_t fi = 0; a->listing && fi < m->nfunc; fi++)
		if (!(m->funcs[fi].attr & (ATTR_ENTRY | ATTR_PROTO)) && m->funcs[fi].has_body)
			listing_print(m, &m->funcs[fi], text);
	int rc = RF_OK;
	if (j) {
		json_arr_end(j);
		json_obj_end(j);
		rc = json_close(j);
		if (jf != stdout) fclose(jf);
	}
	if (a->kernel && !found) return fail(RF_EINPUT, "no kernel '%s' in %s", a->kernel, a->what);
	/* not an error: --listing still shows the module's functions; but say why there is
	   nothing else, rather than printing nothing at all */
	if (!found) fprintf(stderr, "rfsim: %s has no kernels (.entry)\n", a->what);
	return rc;
}

int cmd_analyze(int argc, char **argv)
{
	AOpts a;
	int helped = 0, rc = parse(argc, argv, &a, &helped);
	if (rc || helped) {
		if (helped) help(stdout);
		free(a.cfg.sets);
		return rc;
	}
	Config cfg;
	size_t len = 0;
	char *text = NULL;
	Module *m = NULL;
	PassReport pr = {0};
	if ((rc = args_config(&a.cfg, &cfg))) goto out;
	rc = RF_EINPUT;
	if (!(text = load_text(a.what, &len))) goto out;
	if (!(m = ptx_parse(text, len, a.what))) {
		fail(RF_EINPUT, "%s", err_msg());
		goto out;
	}
	/* -b and --shared are the launch RegMutex's |Es| is chosen for, as at run
	   time (gpu.c launch_image), for every kernel */
	m->launch_threads = a.threads, m->launch_dyn_shared = (uint32_t)a.dyn_shared;
	m->launch_func = -1;
	if (pass_run_report(m, &cfg, &pr)) {
		fail(RF_EINPUT, "%s", err_msg());
		goto out;
	}
	rc = report(m, &pr, &cfg, &a);
out:
	pass_report_free(&pr);
	if (m) ir_free(m);
	free(text);
	free(a.cfg.sets);
	return rc;
}
