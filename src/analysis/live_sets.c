/*
 * live_sets.c -- per-block liveness as sorted register lists, for the
 * passes that run on virtual registers (scheduling, register allocation).
 *
 * live.c keeps a bit set of every register at every block and instruction:
 * blocks x registers bits, which on allocated code (a few hundred
 * registers) is small and fast, and on nvcc's virtual registers is
 * quadratic -- 100,000 registers over 100,000 instructions is 1.25 GB.
 * Here the same per-block sets are solved one register at a time, the
 * "liveness by variable" of Appel ("Modern Compiler Implementation",
 * 10.1) and Boissinot et al.'s path exploration (CGO 2011): from each
 * block that reads r before any unguarded write of it, walk the
 * predecessors backward, marking r live-out in each and live-in where the
 * block does not write it unguarded.  That is the least solution of live.c's
 * equations (a path reads r with no unguarded write before), unreachable
 * blocks included, and costs what it finds: time and memory grow with the
 * total size of the sets, not with blocks x registers.  Registers are
 * solved in ascending order, so each block's list comes out sorted, the
 * order in which a bit-set scan would visit it.
 *
 * Maybe-defined.  Each live-in entry also says whether some write of the
 * register reaches the block's entry (a path of one or more edges from a
 * block that writes it): register allocation holds a value only where it
 * may also be defined (igraph.c).  When r is live into b, every block on
 * such a path after its last write has r live-in too, so the forward
 * search from r's writing blocks need only enter blocks where r is live:
 * again proportional to r's live range.
 */
#include "analysis/live.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { MAXSLOT = 1 + INS_MAXOPD * 256 };   /* reads or writes of one instruction */

typedef struct Pairs { int32_t *v; size_t n, cap; } Pairs;   /* (block, reg, flag) */

static void pair_add(Pairs *p, int32_t b, int32_t r, int32_t flag)
{
	VEC_RESERVE(p->v, p->cap, p->n + 3);
	p->v[p->n++] = b, p->v[p->n++] = r, p->v[p->n++] = flag;
}

/* the (block, reg) pairs of p as per-register block lists: CSR over nreg */
static void by_reg(const Pairs *p, int32_t nreg, int32_t **start, int32_t **blk)
{
	size_t n = p->n / 3;
	int32_t *s = xcalloc((size_t)nreg + 2, sizeof(int32_t));
	int32_t *b = xmalloc(sizeof(int32_t) * (n + 1));
	for (size_t i = 0; i < n; i++) s[p->v[3 * i + 1] + 2]++;
	for (int32_t r = 0; r < nreg; r++) s[r + 2] += s[r + 1];
	for (size_t i = 0; i < n; i++) b[s[p->v[3 * i + 1] + 1]++] = p->v[3 * i];
	*start = s, *blk = b;
}

/* the (block, reg, flag) pairs of p, registers ascending, as per-block lists */
static void by_block(const Pairs *p, int32_t nnode, Arena *a, int32_t **start, int32_t **reg,
                     uint8_t **flag)
{
	size_t n = p->n / 3;
	int32_t *s = arena_alloc(a, sizeof(int32_t) * ((size_t)nnode + 2));
	int32_t *r = arena_alloc(a, sizeof(int32_t) * (n + 1));
	uint8_t *f = flag ? arena_alloc(a, n + 1) : NULL;
	for (size_t i = 0; i < n; i++) s[p->v[3 * i] + 2]++;
	for (int32_t b = 0; b < nnode; b++) s[b + 2] += s[b + 1];
	for (size_t i = 0; i < n; i++) {         /* stable: registers stay ascending */
		size_t k = (size_t)s[p->v[3 * i] + 1]++;
		r[k] = p->v[3 * i + 1];
		if (f) f[k] = (uint8_t)p->v[3 * i + 2];
	}
	*start = s, *reg = r;
	if (flag) *flag = f;
}

typedef struct Occ {         /* where each register is read, written, killed */
	int32_t *gen_start, *gen;    /* blocks reading r before an unguarded write */
	int32_t *kill_start, *kill;  /* blocks writing r unguarded */
	int32_t *def_start, *def;    /* blocks writing r at all */
} Occ;

static void occurrences(const Cfg *c, int32_t nreg, Occ *o)
{
	const Func *f = c->f;
	Pairs gen = {0}, kill = {0}, def = {0};
	int32_t *buf = xmalloc(sizeof(int32_t) * MAXSLOT);
	int32_t *gst = xmalloc(sizeof(int32_t) * ((size_t)nreg * 3 + 1));
	int32_t *kst = gst + nreg, *dst = kst + nreg;
	for (int32_t r = 0; r < 3 * nreg; r++) gst[r] = -1;
	for (int32_t b = 0; b < c->nblock; b++)
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
			const Ins *in = &f->ins[i];
			int n = live_uses(f, in, buf, MAXSLOT);
			for (int k = 0; k < n; k++)
				if (kst[buf[k]] != b && gst[buf[k]] != b)
					gst[buf[k]] = b, pair_add(&gen, b, buf[k], 0);
			n = live_defs(f, in, buf, MAXSLOT);
			for (int k = 0; k < n; k++) {
				int32_t r = buf[k];
				if (dst[r] != b) dst[r] = b, pair_add(&def, b, r, 0);
				if (in->guard < 0 && kst[r] != b) kst[r] = b, pair_add(&kill, b, r, 0);
			}
		}
	by_reg(&gen, nreg, &o->gen_start, &o->gen);
	by_reg(&kill, nreg, &o->kill_start, &o->kill);
	by_reg(&def, nreg, &o->def_start, &o->def);
	free(gen.v), free(kill.v), free(def.v);
	free(gst), free(buf);
}

typedef struct Search {      /* per-block marks, stamped with the register */
	int32_t *in, *out, *kill, *md;
	int32_t *stk, *seen, nseen;
} Search;

/* r's live-in blocks into s->seen (marked in s->in), live-out pairs into out */
static void search_back(const Cfg *c, const Occ *o, int32_t r, Search *s, Pairs *out)
{
	int32_t sp = 0;
	s->nseen = 0;
	for (int32_t k = o->kill_start[r]; k < o->kill_start[r + 1]; k++) s->kill[o->kill[k]] = r;
	for (int32_t k = o->gen_start[r]; k < o->gen_start[r + 1]; k++) {
		int32_t b = o->gen[k];
		s->in[b] = r;
		s->stk[sp++] = b, s->seen[s->nseen++] = b;
	}
	while (sp) {
		const Block *bb = &c->blocks[s->stk[--sp]];
		for (int32_t k = 0; k < bb->npred; k++) {
			int32_t p = bb->pred[k];
			if (s->out[p] != r) s->out[p] = r, pair_add(out, p, r, 0);
			if (s->kill[p] == r || s->in[p] == r) continue;
			s->in[p] = r;
			s->stk[sp++] = p, s->seen[s->nseen++] = p;
		}
	}
}

/* marks s->md[b] = r for the live-in blocks of r that some write reaches */
static void search_defs(const Cfg *c, const Occ *o, int32_t r, Search *s)
{
	for (int32_t k = o->def_start[r]; k < o->def_start[r + 1]; k++) {
		int32_t sp = 0;
		s->stk[sp++] = o->def[k];
		while (sp) {
			const Block *bb = &c->blocks[s->stk[--sp]];
			for (int32_t j = 0; j < bb->nsucc; j++) {
				int32_t t = bb->succ[j];
				if (s->in[t] != r || s->md[t] == r) continue;
				s->md[t] = r;
				s->stk[sp++] = t;
			}
		}
	}
}

LiveSets *live_sets(const Cfg *c)
{
	Arena *a = arena_new();
	LiveSets *ls = arena_alloc(a, sizeof *ls);
	int32_t nreg = c->f->nreg, nnode = c->nblock + 1;
	ls->c = c;
	ls->arena = a;
	Occ o;
	occurrences(c, nreg, &o);
	Search s;
	s.in = xmalloc(sizeof(int32_t) * ((size_t)nnode * 6 + 1));
	s.out = s.in + nnode, s.kill = s.out + nnode, s.md = s.kill + nnode;
	s.seen = s.md + nnode, s.stk = s.seen + nnode;     /* stk: nnode + 1 */
	for (int32_t b = 0; b < 4 * nnode; b++) s.in[b] = -1;
	Pairs in = {0}, out = {0};
	for (int32_t r = 0; r < nreg; r++) {
		if (o.gen_start[r] == o.gen_start[r + 1]) continue;
		search_back(c, &o, r, &s, &out);
		search_defs(c, &o, r, &s);
		for (int32_t k = 0; k < s.nseen; k++)
			pair_add(&in, s.seen[k], r, s.md[s.seen[k]] == r);
	}
	by_block(&in, nnode, a, &ls->in_start, &ls->in, &ls->in_def);
	by_block(&out, nnode, a, &ls->out_start, &ls->out, NULL);
	free(in.v), free(out.v), free(s.in);
	free(o.gen_start), free(o.gen), free(o.kill_start), free(o.kill);
	free(o.def_start), free(o.def);
	return ls;
}

void live_sets_free(LiveSets *ls)
{
	if (ls) arena_free(ls->arena);
}

/* ---- ScanSet ------------------------------------------------------------------ */

void scanset_init(ScanSet *s, int32_t nreg)
{
	s->words = nreg > 0 ? (nreg + 63) / 64 : 1;
	s->w = xcalloc((size_t)s->words, sizeof(uint64_t));
	s->top = xcalloc((size_t)(s->words + 63) / 64, sizeof(uint64_t));
}

void scanset_free(ScanSet *s)
{
	free(s->w), free(s->top);
	memset(s, 0, sizeof *s);
}

int32_t scanset_members(const ScanSet *s, int32_t *out)
{
	int32_t n = 0;
	for (int32_t t = 0; t < (s->words + 63) / 64; t++)
		for (uint64_t tm = s->top[t]; tm; tm &= tm - 1) {
			int32_t j = t * 64 + __builtin_ctzll(tm);
			for (uint64_t m = s->w[j]; m; m &= m - 1) out[n++] = j * 64 + __builtin_ctzll(m);
		}
	return n;
}

void scanset_clear(ScanSet *s)
{
	for (int32_t t = 0; t < (s->words + 63) / 64; t++) {
		for (uint64_t tm = s->top[t]; tm; tm &= tm - 1) s->w[t * 64 + __builtin_ctzll(tm)] = 0;
		s->top[t] = 0;
	}
}
