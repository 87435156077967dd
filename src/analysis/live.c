/*
 * live.c -- register liveness: which registers hold a value that some path
 * may still read, at every block boundary and before every instruction.
 *
 * The classic backward dataflow problem (e.g. Appel, "Modern Compiler
 * Implementation", 10.1), solved per block as QBE's live.c does:
 *   in(b)  = gen(b) | (out(b) & ~kill(b))
 *   out(b) = union of in(s) over the successors s (the exit's in is empty:
 *            a .func returns through .param space, not registers)
 * gen is the set of registers read before any unguarded write in b, kill
 * the set written unguarded in b.  A guarded write (@p mov r, ...) does
 * not kill: when the guard is false the old value survives, so it stays
 * live across the write; the guard register itself is a read.  Iteration
 * visits blocks in postorder (reverse rpo), which for a backward problem
 * converges in a few sweeps (loop nesting depth + 2 on reducible graphs).
 * Unreachable blocks are solved like the others.  Then one backward walk
 * per block derives the per-instruction sets and the per-read facts.
 *
 * Last use.  A read is a last use when no path reads the value again: the
 * register is not live after the instruction, or the instruction itself
 * overwrites it unguarded (add r1, r1, 1).  This is the static liveness bit
 * of Gebhart et al. (ISCA 2011, section 3.2) that lets a register file
 * cache drop a dead value instead of writing it back.
 *
 * Remaining uses.  For Butts and Sohi's use-based register caching, each
 * read also gets the number of reads of the same value that follow it in
 * its block before an unguarded write, plus LIVE_MORE when the value is
 * still live at the block's end (the count beyond it depends on the path:
 * the "unknown" case of their predictor).  Reads of a register twice in one
 * instruction count once for the remaining uses of earlier reads, each.
 *
 * Liveness is per thread.  The warp-level view RegMutex needs (a value
 * live into one side of a divergent branch stays live across the other
 * side, up to the reconvergence point; regmutex.md section III) is built on
 * top of this by live_div.c, using Cfg.ipdom; its essay says which
 * consumer uses which.
 *
 * Size.  The sets are bit sets over every register at every block and
 * instruction: right for allocated code (a few hundred registers), and
 * quadratic on nvcc's virtual registers, so the passes that run before
 * allocation use live_sets.c's per-block lists instead.
 *
 * Not modelled: the carry flag of add.cc/addc (no register id), special
 * registers (read-only, not allocated).
 */
#include "analysis/live.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { MAXSLOT = 1 + INS_MAXOPD * 256 };   /* reads or writes of one instruction */

static int put(int32_t *reg, int n, int max, int32_t r)
{
	if (n < max) reg[n] = r;
	return n + 1;
}

/* the reads (src = 1) or writes (src = 0) of one operand, appended */
static int opd_regs(const Operand *o, int src, int want_src, int32_t *reg, int n, int max)
{
	if (o->kind == OPK_REG && src == want_src) return put(reg, n, max, o->reg);
	if (o->kind == OPK_ADDR && want_src && !(o->flags & OPDF_SYMBASE) && o->reg >= 0)
		return put(reg, n, max, o->reg);
	return n;
}

static int ins_regs(const Func *f, const Ins *in, int want_src, int32_t *reg, int max)
{
	int n = 0;
	if (want_src && in->guard >= 0) n = put(reg, n, max, in->guard);
	for (int k = 0; k < in->nd + in->ns; k++) {
		const Operand *o = &in->o[k];
		int src = k >= in->nd;
		if (o->kind != OPK_VEC) {
			n = opd_regs(o, src, want_src, reg, n, max);
			continue;
		}
		for (int e = 0; e < o->n; e++)
			n = opd_regs(&f->vops[o->reg + e], src, want_src, reg, n, max);
	}
	return n;
}

int live_uses(const Func *f, const Ins *in, int32_t *reg, int max)
{
	return ins_regs(f, in, 1, reg, max);
}

int live_defs(const Func *f, const Ins *in, int32_t *reg, int max)
{
	return ins_regs(f, in, 0, reg, max);
}

/* ---- sets ----------------------------------------------------------------- */

static uint64_t *set_of(const Live *l, uint64_t *base, int32_t i)
{
	return base + (size_t)i * (size_t)l->words;
}

static void set_add(uint64_t *s, int32_t r) { s[r >> 6] |= (uint64_t)1 << (r & 63); }
static void set_del(uint64_t *s, int32_t r) { s[r >> 6] &= ~((uint64_t)1 << (r & 63)); }

int live_count(const Live *l, const uint64_t *set)
{
	int n = 0;
	for (int32_t w = 0; w < l->words; w++) n += __builtin_popcountll(set[w]);
	return n;
}

const uint64_t *live_in(const Live *l, int32_t ins)
{
	return set_of(l, l->ins_in, ins);
}

const uint64_t *live_out(const Live *l, int32_t ins)
{
	const Cfg *c = l->c;
	int32_t b = c->block_of[ins];
	if (ins == c->blocks[b].last) return set_of(l, l->blk_out, b);
	return set_of(l, l->ins_in, ins + 1);
}

/* ---- the dataflow ---------------------------------------------------------- */

static void gen_kill(const Live *l, int32_t b, uint64_t *gen, uint64_t *kill, int32_t *buf)
{
	const Func *f = l->c->f;
	const Block *bb = &l->c->blocks[b];
	for (int32_t i = bb->last; i >= bb->first; i--) {
		const Ins *in = &f->ins[i];
		if (in->guard < 0) {
			int n = live_defs(f, in, buf, MAXSLOT);
			for (int k = 0; k < n; k++) {
				set_del(gen, buf[k]);
				set_add(kill, buf[k]);
			}
		}
		int n = live_uses(f, in, buf, MAXSLOT);
		for (int k = 0; k < n; k++) set_add(gen, buf[k]);
	}
}

static void solve(Live *l, const uint64_t *gen, const uint64_t *kill)
{
	const Cfg *c = l->c;
	int32_t w = l->words;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t i = c->nblock; i >= 0; i--) {
			int32_t b = c->rpo[i];
			if (b == c->exit) continue;
			uint64_t *out = set_of(l, l->blk_out, b), *in = set_of(l, l->blk_in, b);
			const Block *bb = &c->blocks[b];
			memset(out, 0, sizeof(uint64_t) * (size_t)w);
			for (int32_t k = 0; k < bb->nsucc; k++) {
				const uint64_t *si = set_of(l, l->blk_in, bb->succ[k]);
				for (int32_t j = 0; j < w; j++) out[j] |= si[j];
			}
			size_t off = (size_t)b * (size_t)w;
			const uint64_t *g = gen + off, *kl = kill + off;
			for (int32_t j = 0; j < w; j++) {
				uint64_t v = g[j] | (out[j] & ~kl[j]);
				changed |= v != in[j];
				in[j] = v;
			}
		}
	}
}

typedef struct Walk {        /* per-register state of the backward walk */
	int32_t *stamp;          /* block the entry below belongs to, -1 none */
	int32_t *cnt;            /* reads after the current point, in the block */
	uint8_t *more;           /* the value reaches the block's end */
} Walk;

/* the per-read facts of instruction i; cur holds live_out(i) */
static void read_facts(Live *l, Walk *wk, int32_t b, int32_t i, const int32_t *def, int nd)
{
	const Ins *in = &l->c->f->ins[i];
	for (int k = 0; k < nd && in->guard < 0; k++) {
		wk->stamp[def[k]] = b;
		wk->cnt[def[k]] = 0;
		wk->more[def[k]] = 0;
	}
	for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++) {
		int32_t r = l->use_reg[s];
		if (wk->stamp[r] != b) {
			wk->stamp[r] = b;
			wk->cnt[r] = 0;
			wk->more[r] = (uint8_t)live_has(set_of(l, l->blk_out, b), r);
		}
		l->use_remain[s] = wk->cnt[r] | (wk->more[r] ? LIVE_MORE : 0);
		l->use_last[s] = l->use_remain[s] == 0;
	}
	for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++) wk->cnt[l->use_reg[s]]++;
}

static void per_ins(Live *l, int32_t *buf)
{
	const Cfg *c = l->c;
	const Func *f = c->f;
	Walk wk;
	size_t nr = (size_t)(l->nreg ? l->nreg : 1);
	wk.stamp = xmalloc(sizeof(int32_t) * nr * 2);
	wk.cnt = wk.stamp + nr;
	wk.more = xmalloc(nr);
	for (int32_t r = 0; r < l->nreg; r++) wk.stamp[r] = -1;
	uint64_t *cur = xmalloc(sizeof(uint64_t) * (size_t)l->words);
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bb = &c->blocks[b];
		memcpy(cur, set_of(l, l->blk_out, b), sizeof(uint64_t) * (size_t)l->words);
		for (int32_t i = bb->last; i >= bb->first; i--) {
			const Ins *in = &f->ins[i];
			int nd = live_defs(f, in, buf, MAXSLOT);
			read_facts(l, &wk, b, i, buf, nd);
			for (int k = 0; k < nd && in->guard < 0; k++) set_del(cur, buf[k]);
			for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++)
				set_add(cur, l->use_reg[s]);
			memcpy(set_of(l, l->ins_in, i), cur, sizeof(uint64_t) * (size_t)l->words);
			int n = live_count(l, cur);
			if (n > l->maxlive) l->maxlive = n;
		}
	}
	free(cur);
	free(wk.stamp);
	free(wk.more);
}

/* the read slots of every instruction */
static void find_uses(Live *l, int32_t *buf)
{
	const Func *f = l->c->f;
	l->use_start = arena_alloc(l->arena, sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t nslot = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		l->use_start[i] = nslot;
		nslot += live_uses(f, &f->ins[i], NULL, 0);
	}
	l->use_start[f->nins] = nslot;
	l->use_reg = arena_alloc(l->arena, sizeof(int32_t) * (size_t)nslot);
	l->use_last = arena_alloc(l->arena, (size_t)nslot);
	l->use_remain = arena_alloc(l->arena, sizeof(int32_t) * (size_t)nslot);
	for (int32_t i = 0; i < f->nins; i++) {
		int n = live_uses(f, &f->ins[i], buf, MAXSLOT);
		assert(n <= MAXSLOT && n == l->use_start[i + 1] - l->use_start[i]);
		memcpy(l->use_reg + l->use_start[i], buf, sizeof(int32_t) * (size_t)n);
	}
}

Live *live_compute(const Cfg *c)
{
	Arena *a = arena_new();
	Live *l = arena_alloc(a, sizeof *l);
	const Func *f = c->f;
	l->c = c;
	l->arena = a;
	l->nreg = f->nreg;
	l->words = f->nreg > 0 ? (f->nreg + 63) / 64 : 1;
	size_t nset = (size_t)(c->nblock + 1) * (size_t)l->words;
	l->blk_in = arena_alloc(a, sizeof(uint64_t) * nset);
	l->blk_out = arena_alloc(a, sizeof(uint64_t) * nset);
	int32_t *buf = xmalloc(sizeof(int32_t) * MAXSLOT);
	uint64_t *gen = xcalloc(nset, sizeof(uint64_t)), *kill = xcalloc(nset, sizeof(uint64_t));
	l->ins_in = arena_alloc(a, sizeof(uint64_t) * (size_t)f->nins * (size_t)l->words);
	find_uses(l, buf);
	for (int32_t b = 0; b < c->nblock; b++)
		gen_kill(l, b, set_of(l, gen, b), set_of(l, kill, b), buf);
	solve(l, gen, kill);
	per_ins(l, buf);
	free(gen);
	free(kill);
	free(buf);
	return l;
}


void live_free(Live *l)
{
	if (l) arena_free(l->arena);
}

/* ---- dump ------------------------------------------------------------------- */

static void put_reg(const Live *l, const Module *m, int32_t r, FILE *out)
{
	char buf[64];
	if (m) fprintf(out, " %s", ir_regname(m, l->c->f, r, buf, sizeof buf));
	else fprintf(out, " r%d", r);
}

static void put_set(const Live *l, const Module *m, const char *what, const uint64_t *s,
                    FILE *out)
{
	fputs(what, out);
	if (!live_count(l, s)) fputs(" -", out);
	for (int32_t r = 0; r < l->nreg; r++)
		if (live_has(s, r)) put_reg(l, m, r, out);
}

static void dump_ins(const Live *l, const Module *m, int32_t i, int32_t *buf, FILE *out)
{
	const Func *f = l->c->f;
	fprintf(out, "  %d %s:", i, op_info[f->ins[i].op].name);
	put_set(l, m, " in", live_in(l, i), out);
	if (l->use_start[i] < l->use_start[i + 1]) fputs("; use", out);
	for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++) {
		int32_t rem = l->use_remain[s];
		put_reg(l, m, l->use_reg[s], out);
		if (l->use_last[s]) fputc('!', out);
		else fprintf(out, ":%d%s", rem & ~LIVE_MORE, rem & LIVE_MORE ? "+" : "");
	}
	int nd = live_defs(f, &f->ins[i], buf, MAXSLOT);
	if (nd) fputs("; def", out);
	for (int k = 0; k < nd; k++) put_reg(l, m, buf[k], out);
	fputc('\n', out);
}

void live_dump(const Live *l, const Module *m, FILE *out)
{
	const Cfg *c = l->c;
	int32_t *buf = xmalloc(sizeof(int32_t) * MAXSLOT);
	fprintf(out, "live: %d regs, max %d\n", l->nreg, l->maxlive);
	for (int32_t b = 0; b < c->nblock; b++) {
		fprintf(out, "b%d", b);
		put_set(l, m, " in", set_of(l, l->blk_in, b), out);
		put_set(l, m, "; out", set_of(l, l->blk_out, b), out);
		fputc('\n', out);
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
			dump_ins(l, m, i, buf, out);
	}
	free(buf);
}

/* see live.h: a forward walk in reverse post-order to a fixed point */
uint64_t *live_maydef(const Cfg *c, int32_t words)
{
	const Func *f = c->f;
	int32_t nb = c->nblock + 1, buf[1 + INS_MAXOPD * 256];
	size_t w = (size_t)words;
	uint64_t *in = xcalloc((size_t)nb * w, sizeof(uint64_t));
	uint64_t *ins = xcalloc((size_t)(f->nins + 1) * w, sizeof(uint64_t));
	uint64_t *cur = xmalloc(sizeof(uint64_t) * w);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t k = 0; k < nb; k++) {
			int32_t b = c->rpo[k];
			if (b == c->exit) continue;
			memcpy(cur, in + (size_t)b * w, sizeof(uint64_t) * w);
			for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
				memcpy(ins + (size_t)i * w, cur, sizeof(uint64_t) * w);
				int n = live_defs(f, &f->ins[i], buf, (int)(sizeof buf / sizeof *buf));
				for (int j = 0; j < n; j++) cur[buf[j] >> 6] |= (uint64_t)1 << (buf[j] & 63);
			}
			for (int32_t s = 0; s < c->blocks[b].nsucc; s++) {
				uint64_t *si = in + (size_t)c->blocks[b].succ[s] * w;
				for (size_t j = 0; j < w; j++) {
					changed |= (cur[j] & ~si[j]) != 0;
					si[j] |= cur[j];
				}
			}
		}
	}
	free(in);
	free(cur);
	return ins;
}
