/*
 * test_regmutex_corpus.c -- the RegMutex pass (src/analysis/regmutex.c,
 * rm_plan.c, rm_home.c, rm_check.c) on every kernel of the corpus: each
 * .ptx under tests/ptx (but bad/ and invalid/), tests/sem and workloads/,
 * allocated on every built-in config, placed at the |Bs| of each forced
 * |Es| of ES below (regmutex.es; the first three in a sanitizer build) and
 * at the heuristic's pick.  Each
 * placement must
 *   - pass the independent check as placed (RmStats.whole = 0: the
 *     fallback is there for placement bugs, and a kernel needing it shows
 *     one), or be refused naming a rule -- never "fails its own check";
 *   - have a fallback placement (every divergent region with an acquired
 *     point acquired whole) that passes the check too;
 *   - be undone by rm_undo to exactly the allocated code.
 * Compile only, no simulation: seconds for the corpus.  CUB's
 * DeviceReduceSingleTileKernel (tests/ptx/rm_cub_reduce.ptx) failed the
 * first rule on fermi-gtx480 at the heuristic's |Es| and at several forced
 * ones, the pass stopping with an internal error.
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pass.h"
#include "analysis/regmutex.h"
#include "analysis/rm_int.h"
#include "base/base.h"
#include "base/config.h"
#include "ptx/ptx.h"
#include "unit.h"

static const char *const CONFIGS[] = {"fermi-gtx480", "maxwell-ltrf", "hopper-h100",
                                      "gebhart-isca11"};
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static const int ES[] = {2, 4, 6, 8, 12, 16, 24, 32};
static const size_t NES = SANITIZED ? 3 : sizeof ES / sizeof *ES;   /* 3x slower there */

static Config cfg;
static int nfiles, nkernels, nplaced, nfail;
static uint64_t *seen;       /* hashes of the allocated kernels placed so far */
static size_t nseen, capseen;

/* kernel name of a module allocated as one already placed (on another
   config with the same register cap): its forced placements would repeat */
static int placed_before(const char *name, const char *module)
{
	uint64_t h = 1469598103934665603ull;        /* FNV-1a */
	for (const char *c = name; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211ull;
	for (const char *c = module; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211ull;
	for (size_t i = 0; i < nseen; i++)
		if (seen[i] == h) return 1;
	if (nseen == capseen) {
		capseen = capseen ? 2 * capseen : 256;
		seen = xrealloc(seen, capseen * sizeof *seen);
	}
	seen[nseen++] = h;
	return 0;
}

static int has_call(const Func *f)
{
	for (int32_t i = 0; i < f->nins; i++)
		if (f->ins[i].op == OP_CALL) return 1;
	return 0;
}

/* a refusal must name a rule of the pass, not a check it failed */
static void refused_for_a_rule(const char *what)
{
	const char *e = err_msg();
	int rule = strstr(e, "deadlock rule") || strstr(e, "left out") ||
	           strstr(e, "too many registers");
	CHECK(rule);
	if (!rule && nfail++ < 10) fprintf(stderr, "%s: %s\n", what, e);
}

/* kernel fi placed at base set bs, as placed and by the fallback, each undone */
static void place_both(Module *m, int32_t fi, int32_t bs, const char *what)
{
	Func *f = &m->funcs[fi];
	for (int whole = 0; whole < 2; whole++) {
		RmStats st;
		RmSave save;
		memset(&st, 0, sizeof st);
		rm_save(m, f, &save);
		if (regmutex_apply(m, fi, bs, whole, &st) == RF_OK) {
			CHECK_EQ(st.whole, whole);
			CHECK_EQ(regmutex_check(f, bs, NULL), 0);
			if (st.whole != whole && nfail++ < 10)
				fprintf(stderr, "%s: |Bs| %d: the placement fails rm_check (compiler.dump=m "
				        "shows the fallback)\n", what, bs);
			rm_undo(m, f, &save);
			nplaced++;
		} else {
			refused_for_a_rule(what);
		}
		rm_save_free(&save);
	}
}

static void kernel(Module *m, int32_t fi, const char *path)
{
	Func *f = &m->funcs[fi];
	char what[512];
	snprintf(what, sizeof what, "%s on %s: %s", path, cfg.name,
	         ir_str(m, m->syms[f->sym].name));
	char *before = ptx_print_str(m, NULL);
	int again = placed_before(ir_str(m, m->syms[f->sym].name), before);
	for (size_t k = 0; k < NES && !again; k++) {
		RmPick pk;
		regmutex_pick(&cfg, f->regs_per_thread, 256, 0, 0, ES[k], 0, &pk);
		if (pk.es) place_both(m, fi, pk.bs, what);
	}
	char *after = ptx_print_str(m, NULL);
	CHECK_STR(after, before);            /* every placement undone */
	RmStats st;                          /* the heuristic, as the pipeline runs it */
	CHECK_EQ(regmutex_func(m, fi, &cfg, &st, NULL), RF_OK);
	CHECK_EQ(st.whole, 0);
	if (st.pick.why && strstr(st.pick.why, "own check") && nfail++ < 10)
		fprintf(stderr, "%s: %s\n", what, st.pick.why);
	CHECK(!st.pick.why || !strstr(st.pick.why, "own check"));
	free(before), free(after);
	nkernels++;
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	size_t n = strlen(path), len;
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx") || strstr(path, "/bad/") ||
	    strstr(path, "/invalid/"))
		return 0;
	char *text = read_file(path, FILE_PTX, &len);
	Module *m = text ? ptx_parse(text, len, path) : NULL;
	free(text);
	if (!m) return 0;                  /* the parser's tests report files it rejects */
	if (pass_run(m, &cfg) == RF_OK) {
		for (int32_t i = 0; i < m->nfunc; i++) {
			const Func *f = &m->funcs[i];
			if ((f->attr & ATTR_ENTRY) && f->phys && !has_call(f)) kernel(m, i, path);
		}
		nfiles++;
	}
	ir_free(m);
	return 0;
}

TEST(regmutex_corpus)
{
	nplaced = 0;
	for (size_t c = 0; c < sizeof CONFIGS / sizeof *CONFIGS; c++) {
		config_defaults(&cfg);
		CHECK_EQ(config_load(&cfg, CONFIGS[c]), RF_OK);
		nfiles = nkernels = 0;
		nftw("tests/ptx", visit, 16, 0);
		nftw("tests/sem", visit, 16, 0);
		nftw("workloads", visit, 16, 0);
		CHECK(nfiles > 60);
		CHECK(nkernels > 150);
	}
	CHECK(nplaced > (SANITIZED ? 600 : 1500));
	free(seen);
	seen = NULL, nseen = capseen = 0;
}
