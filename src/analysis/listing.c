/*
 * listing.c -- the register view of a function that `rfsim analyze`
 * prints: how many registers are live where, and the code annotated with
 * it.
 *
 * Live registers are counted in 32-bit registers (a 64-bit pair counts
 * two; predicates are not counted), before each instruction, from
 * live.c's per-thread sets or live_div.c's warp-level ones, leaving out
 * registers no write can have reached yet (a value read under a guard
 * before any write is garbage on the other paths, not a live value; the
 * allocator makes the same refinement, igraph.c).  On allocated
 * code each register id is one architected register of one width and
 * the allocator never lets two overlapping ids hold values at once, so
 * the count is the number of architected registers holding a value.
 * The profile is the distribution of that count over the static
 * instructions -- the data behind RegMutex's Figure 1 (which plots it
 * over the dynamic instruction stream of one thread) and its argument
 * that most of the time far fewer registers are live than allocated.
 *
 * The listing prints each instruction as PTX (ptx_print_ins), with its
 * labels, the per-thread and warp-level live counts before it, and the
 * registers whose value it reads for the last time (live.c's last-use
 * bits: what a register file cache may drop without writing back).
 */
#include "analysis/listing.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "base/base.h"
#include "ptx/ptx.h"

const int listing_pct[NPCT] = {0, 25, 50, 75, 90, 100};

/* 32-bit registers in set that may hold a value (md: maybe-defined) */
static int32_t count32(const Func *f, const Live *l, const uint64_t *set, const uint64_t *md)
{
	int32_t n = 0;
	for (int32_t w = 0; w < l->words; w++)
		for (uint64_t m = set[w] & md[w]; m; m &= m - 1) {
			int32_t r = w * 64 + __builtin_ctzll(m);
			PtxType t = (PtxType)f->regtype[r];
			int sz = ptxtype_size(t);
			if (t != PT_PRED) n += sz > 4 ? sz / 4 : 1;
		}
	return n;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

void listing_profile(const Func *f, int warp, LiveProfile *p)
{
	memset(p, 0, sizeof *p);
	Cfg *c = cfg_build(f);
	Live *l = warp ? live_compute_div(c) : live_compute(c);
	uint64_t *md = live_maydef(c, l->words);
	int32_t *v = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	double sum = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		if (op_info[f->ins[i].op].flags & OPF_PSEUDO) continue;
		v[p->n] = count32(f, l, live_in(l, i), md + (size_t)i * (size_t)l->words);
		sum += v[p->n++];
	}
	qsort(v, (size_t)p->n, sizeof *v, cmp_i32);
	for (int k = 0; k < NPCT && p->n; k++) {
		int32_t at = (int32_t)(((int64_t)listing_pct[k] * p->n + 99) / 100) - 1;
		p->pct[k] = v[at < 0 ? 0 : at];
	}
	p->mean = p->n ? sum / p->n : 0;
	free(v);
	free(md);
	live_free(l);
	cfg_free(c);
}

static void print_line(const Module *m, const Func *f, const Live *lt, const Live *lw,
                       const uint64_t *md, int32_t i, FILE *out)
{
	char *text = NULL, last[512] = "", buf[64];
	size_t len = 0, n = 0;
	FILE *s = open_memstream(&text, &len);
	if (!s) die("open_memstream failed");
	ptx_print_ins(m, f, &f->ins[i], s);
	fclose(s);
	while (len && text[len - 1] == '\n') text[--len] = 0;
	for (int32_t u = lt->use_start[i]; u < lt->use_start[i + 1]; u++) {
		int dup = !lt->use_last[u];
		for (int32_t v = lt->use_start[i]; v < u && !dup; v++)
			dup = lt->use_reg[v] == lt->use_reg[u] && lt->use_last[v];
		if (dup || n + 80 > sizeof last) continue;
		n += (size_t)snprintf(last + n, sizeof last - n, "%s %s", n ? "" : " // last:",
		                      ir_regname(m, f, lt->use_reg[u], buf, sizeof buf));
	}
	const uint64_t *mi = md + (size_t)i * (size_t)lt->words;
	fprintf(out, "%6d %4d %4d  ", i, count32(f, lt, live_in(lt, i), mi),
	        count32(f, lw, live_in(lw, i), mi));
	if (n) fprintf(out, "%-52s%s\n", text[0] == '\t' ? text + 1 : text, last);
	else fprintf(out, "%s\n", text[0] == '\t' ? text + 1 : text);
	free(text);
}

void listing_print(const Module *m, const Func *f, FILE *out)
{
	Cfg *c = cfg_build(f);
	Live *lt = live_compute(c), *lw = live_compute_div(c);
	uint64_t *md = live_maydef(c, lt->words);
	int32_t *first = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 2));
	int32_t *next = xmalloc(sizeof(int32_t) * ((size_t)f->nlabel + 1));
	for (int32_t i = 0; i <= f->nins; i++) first[i] = -1;
	for (int32_t k = f->nlabel - 1; k >= 0; k--) {
		int32_t at = f->labels[k].ins;
		if (at < 0 || at > f->nins) continue;
		next[k] = first[at];
		first[at] = k;
	}
	fprintf(out, "%s %s: %d registers, %d predicates\n",
	        f->attr & ATTR_ENTRY ? ".entry" : ".func", ir_str(m, m->syms[f->sym].name),
	        f->phys ? f->nphys : f->nreg, f->phys ? f->nphys_pred : 0);
	fputs("     #  thr warp  instruction   (live 32-bit registers before it: per thread, "
	      "warp-level)\n", out);
	for (int32_t i = 0; i <= f->nins; i++) {
		for (int32_t k = first[i]; k >= 0; k = next[k])
			fprintf(out, "%s:\n", ir_str(m, f->labels[k].name));
		if (i < f->nins && !(op_info[f->ins[i].op].flags & OPF_PSEUDO))
			print_line(m, f, lt, lw, md, i, out);
	}
	free(first);
	free(next);
	free(md);
	live_free(lt);
	live_free(lw);
	cfg_free(c);
}
