/*
 * cfg.c -- basic blocks and control-flow edges of one function.
 *
 * Leaders are instruction 0, every instruction that a branch targets, and
 * the first instruction after a control transfer (bra, ret, exit, trap)
 * that is either a branch target or not a pseudo.  So `bra L; }` keeps the
 * SCOPE_END in the branch's block instead of making a spurious unreachable
 * block of it; SCOPE_BEGIN/SCOPE_END are never executed and never end a
 * block.  A labelled instruction that no branch targets does not start a
 * block, so blocks are maximal.  `call` does not end a block: calls return.
 *
 * A block's control transfer is its last non-pseudo instruction (`term`):
 *   bra L          one successor, L's block (the exit if L is at the end)
 *   @p bra L       L's block first, then the fall-through (one if equal)
 *   ret/exit/trap  the exit; guarded: the exit, then the fall-through
 *   anything else  the fall-through: block b + 1, which for the last block
 *                  is the exit, as the ids are arranged so
 * `bra.uni` is a branch like any other.  A branch with no label operand
 * cannot come from the parser (brx.idx is not supported); it is given the
 * exit as its target so that nothing downstream sees a missing edge.
 *
 * The edges live in two flat arrays (CSR); Block.succ and Block.pred point
 * into them.  Predecessor lists come out sorted by source block.  Then
 * dom.c and loop.c fill in the rest of the Cfg (see cfg.h).
 */
#include "analysis/cfg.h"

#include <assert.h>
#include <stdlib.h>

#include "base/base.h"

enum { XFER = OPF_BRANCH | OPF_RET | OPF_EXIT };

static int is_pseudo(const Ins *in) { return op_info[in->op].flags & OPF_PSEUDO; }

/* label id of a branch's target, -1 if it has none */
static int32_t branch_label(const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_LABEL) return in->o[k].reg;
	return -1;
}

static int32_t target_ins(const Func *f, const Ins *in)
{
	int32_t l = branch_label(in);
	if (l < 0 || l >= f->nlabel) return f->nins;
	return f->labels[l].ins;
}

/* mark leaders (leader has nins + 1 entries); returns the block count */
static int32_t find_leaders(const Func *f, uint8_t *leader)
{
	int32_t n = f->nins;
	if (n == 0) return 0;
	leader[0] = 1;
	for (int32_t i = 0; i < n; i++) {
		const Ins *in = &f->ins[i];
		if (op_info[in->op].flags & OPF_BRANCH) {
			int32_t t = target_ins(f, in);
			if (t >= 0 && t < n) leader[t] = 1;
		}
	}
	for (int32_t i = 0; i < n; i++) {
		if (!(op_info[f->ins[i].op].flags & XFER)) continue;
		int32_t j = i + 1;
		while (j < n && !leader[j] && is_pseudo(&f->ins[j])) j++;
		if (j < n) leader[j] = 1;
	}
	int32_t nb = 0;
	for (int32_t i = 0; i < n; i++) nb += leader[i] != 0;
	return nb;
}

/* successors of block b into s[0..2); returns how many */
static int block_succ(const Cfg *c, int32_t b, int32_t s[2])
{
	const Func *f = c->f;
	int32_t term = c->blocks[b].term, fall = b + 1;
	if (term < 0) { s[0] = fall; return 1; }
	const Ins *in = &f->ins[term];
	uint16_t fl = op_info[in->op].flags;
	if (!(fl & XFER)) { s[0] = fall; return 1; }
	if (fl & OPF_BRANCH) {
		int32_t t = target_ins(f, in);
		s[0] = t >= 0 && t < f->nins ? c->block_of[t] : c->exit;
	} else {
		s[0] = c->exit;
	}
	if (in->guard < 0 || s[0] == fall) return 1;
	s[1] = fall;
	return 2;
}

static void make_blocks(Cfg *c, const uint8_t *leader)
{
	const Func *f = c->f;
	int32_t b = -1;
	for (int32_t i = 0; i < f->nins; i++) {
		if (leader[i]) {
			if (b >= 0) c->blocks[b].last = i - 1;
			c->blocks[++b].first = i;
			c->blocks[b].term = -1;
		}
		c->block_of[i] = b;
		if (!is_pseudo(&f->ins[i])) c->blocks[b].term = i;
	}
	if (b >= 0) c->blocks[b].last = f->nins - 1;
	Block *x = &c->blocks[c->exit];
	x->first = f->nins;
	x->last = f->nins - 1;
	x->term = -1;
}

static void make_edges(Cfg *c)
{
	Arena *a = c->arena;
	int32_t nn = c->nblock + 1;
	int32_t (*s)[2] = xmalloc(sizeof(int32_t[2]) * (size_t)(c->nblock ? c->nblock : 1));
	int32_t *ns = xmalloc(sizeof(int32_t) * (size_t)nn), nedge = 0;
	for (int32_t b = 0; b < c->nblock; b++) nedge += ns[b] = block_succ(c, b, s[b]);
	ns[c->exit] = 0;
	int32_t *sedge = arena_alloc(a, sizeof(int32_t) * (size_t)nedge);
	int32_t *pedge = arena_alloc(a, sizeof(int32_t) * (size_t)nedge);
	int32_t off = 0;
	for (int32_t b = 0; b < nn; b++) {
		Block *bb = &c->blocks[b];
		bb->succ = sedge + off;
		for (int k = 0; k < ns[b]; k++) {
			sedge[off++] = s[b][k];
			c->blocks[s[b][k]].npred++;
		}
		bb->nsucc = ns[b];
	}
	off = 0;
	for (int32_t b = 0; b < nn; b++) {
		c->blocks[b].pred = pedge + off;
		off += c->blocks[b].npred;
		c->blocks[b].npred = 0;
	}
	for (int32_t b = 0; b < c->nblock; b++)
		for (int k = 0; k < ns[b]; k++) {
			Block *t = &c->blocks[s[b][k]];
			t->pred[t->npred++] = b;
		}
	free(s);
	free(ns);
}

Cfg *cfg_build(const Func *f)
{
	Arena *a = arena_new();
	Cfg *c = arena_alloc(a, sizeof *c);
	c->f = f;
	c->arena = a;
	uint8_t *leader = xcalloc((size_t)f->nins + 1, 1);
	c->nblock = find_leaders(f, leader);
	c->exit = c->nblock;
	c->blocks = arena_alloc(a, sizeof(Block) * (size_t)(c->nblock + 1));
	c->block_of = arena_alloc(a, sizeof(int32_t) * (size_t)f->nins);
	make_blocks(c, leader);
	free(leader);
	make_edges(c);
	dom_compute(c);
	loop_compute(c);
	return c;
}

void cfg_free(Cfg *c)
{
	if (c) arena_free(c->arena);
}

int32_t cfg_reconverge_pc(const Cfg *c, int32_t branch_ins)
{
	assert(branch_ins >= 0 && branch_ins < c->f->nins);
	int32_t p = c->ipdom[c->block_of[branch_ins]];
	return p == c->exit ? -1 : c->blocks[p].first;
}

/* ---- dump ------------------------------------------------------------ */

static void put_block(const Cfg *c, int32_t b, FILE *out)
{
	if (b < 0) fputs(" -", out);
	else if (b == c->exit) fputs(" exit", out);
	else fprintf(out, " b%d", b);
}

static void put_list(const Cfg *c, const char *what, const int32_t *v, int32_t n, FILE *out)
{
	fputs(what, out);
	if (n == 0) fputs(" -", out);
	for (int32_t k = 0; k < n; k++) put_block(c, v[k], out);
}

static void put_label(const Cfg *c, const Module *m, const int32_t *label_at, int32_t b,
                      FILE *out)
{
	if (b == c->exit || c->blocks[b].first >= c->f->nins) return;
	int32_t l = label_at[c->blocks[b].first];
	if (l < 0) return;
	if (m) fprintf(out, " %s", ir_str(m, c->f->labels[l].name));
	else fprintf(out, " L%d", l);
}

static void dump_block(const Cfg *c, const Module *m, const int32_t *label_at, int32_t b,
                       FILE *out)
{
	const Block *bb = &c->blocks[b];
	if (b == c->exit) fprintf(out, "exit");
	else fprintf(out, "b%d [%d,%d]", b, bb->first, bb->last);
	put_label(c, m, label_at, b, out);
	if (b != c->exit) put_list(c, ": succ", bb->succ, bb->nsucc, out);
	put_list(c, b != c->exit ? "; pred" : ": pred", bb->pred, bb->npred, out);
	fputs("; idom", out);
	put_block(c, c->idom[b], out);
	fputs("; ipdom", out);
	put_block(c, c->ipdom[b], out);
	if (b != c->exit)
		fprintf(out, "; depth %d; ivl %d", c->loop_depth[b], c->ivl_of[b]);
	if (bb->nsucc > 1 && bb->term >= 0)
		fprintf(out, "; reconv %d", cfg_reconverge_pc(c, bb->term));
	if (c->rpo_index[b] >= c->nreach) fputs("; unreachable", out);
	fputc('\n', out);
}

void cfg_dump(const Cfg *c, const Module *m, FILE *out)
{
	const Func *f = c->f;
	const char *name = m && f->sym >= 0 && f->sym < m->nsym ?
	                   ir_str(m, m->syms[f->sym].name) : "?";
	fprintf(out, "cfg %s: %d blocks, %d loops, %d intervals, %s, derived %d limit %d\n",
	        name, c->nblock, c->nloop, c->nivl,
	        c->reducible ? "reducible" : "irreducible", c->nderived, c->limit_size);
	int32_t *label_at = xmalloc(sizeof(int32_t) * (size_t)(f->nins + 1));
	for (int32_t i = 0; i <= f->nins; i++) label_at[i] = -1;
	for (int32_t l = f->nlabel - 1; l >= 0; l--)
		if (f->labels[l].ins >= 0 && f->labels[l].ins <= f->nins)
			label_at[f->labels[l].ins] = l;
	for (int32_t b = 0; b <= c->nblock; b++) dump_block(c, m, label_at, b, out);
	free(label_at);
	for (int32_t i = 0; i < c->nloop; i++) {
		const Loop *l = &c->loops[i];
		fprintf(out, "loop %d: header b%d; parent", i, l->header);
		if (l->parent < 0) fputs(" -", out);
		else fprintf(out, " %d", l->parent);
		fprintf(out, "; depth %d; body", l->depth);
		for (int32_t b = l->lo; b <= l->hi && b < c->nblock; b++)
			if (cfg_in_loop(c, i, b)) fprintf(out, " b%d", b);
		fputc('\n', out);
	}
	for (int32_t i = 0; i < c->nivl; i++) {
		fprintf(out, "ivl %d: header b%d; blocks", i, c->ivl_header[i]);
		for (int32_t k = c->ivl_start[i]; k < c->ivl_start[i + 1]; k++)
			fprintf(out, " b%d", c->ivl_blocks[k]);
		fputc('\n', out);
	}
	for (int32_t i = 0; i < c->nfake; i++) fprintf(out, "fake b%d -> exit\n", c->fake[i]);
}
