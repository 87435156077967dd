/*
 * test_cfg.c -- control-flow graph, dominators, loops and intervals.
 *
 * Functions are written in the tiny assembly of tfunc.h; only control flow
 * matters here, so other instructions need no operands.  Each golden test
 * compares cfg_dump() with the expected text; every test also runs
 * check_cfg(), which recomputes dominators, post-dominators, intervals and
 * loops by brute force and compares.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/cfg.h"
#include "base/base.h"
#include "tfunc.h"

static char *dump(const Cfg *c, const Module *m)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	cfg_dump(c, m, f);
	fclose(f);
	return buf;
}

/* ---- brute-force checks ---------------------------------------------- */

/* nodes reachable from `from` along succ (dir 0) or pred+fake (dir 1) edges,
   never entering `avoid` */
static void reach_avoiding(const Cfg *c, int dir, int32_t from, int32_t avoid, uint8_t *seen)
{
	int32_t n = c->nblock + 1, sp = 0;
	int32_t *stk = xmalloc(sizeof(int32_t) * (size_t)n * 2);
	memset(seen, 0, (size_t)n);
	if (from == avoid) { free(stk); return; }
	seen[from] = 1;
	stk[sp++] = from;
	while (sp) {
		int32_t v = stk[--sp];
		const Block *b = &c->blocks[v];
		int32_t k = dir ? b->npred : b->nsucc;
		const int32_t *l = dir ? b->pred : b->succ;
		for (int32_t i = 0; i < k + (dir && v == c->exit ? c->nfake : 0); i++) {
			int32_t w = i < k ? l[i] : c->fake[i - k];
			if (w == avoid || seen[w]) continue;
			seen[w] = 1;
			stk[sp++] = w;
		}
	}
	free(stk);
}

static void check_edges(const Cfg *c)
{
	const Func *f = c->f;
	int32_t n = c->nblock + 1;
	CHECK_EQ(c->exit, c->nblock);
	for (int32_t i = 0; i < f->nins; i++) {
		const Block *b = &c->blocks[c->block_of[i]];
		CHECK(b->first <= i && i <= b->last);
	}
	for (int32_t b = 0; b < c->nblock; b++) {
		CHECK(c->blocks[b].first <= c->blocks[b].last);
		CHECK_EQ(c->blocks[b].first, b ? c->blocks[b - 1].last + 1 : 0);
	}
	for (int32_t u = 0; u < n; u++)
		for (int32_t k = 0; k < c->blocks[u].nsucc; k++) {
			const Block *bu = &c->blocks[u], *bv = &c->blocks[bu->succ[k]];
			int32_t v = bu->succ[k], nuv = 0, nvu = 0;
			for (int32_t j = 0; j < bu->nsucc; j++) nuv += bu->succ[j] == v;
			for (int32_t j = 0; j < bv->npred; j++) nvu += bv->pred[j] == u;
			CHECK_EQ(nuv, nvu);
		}
	int32_t ne = 0, np = 0;
	for (int32_t u = 0; u < n; u++) ne += c->blocks[u].nsucc, np += c->blocks[u].npred;
	CHECK_EQ(ne, np);
	CHECK_EQ(c->blocks[c->exit].nsucc, 0);
}

static void check_doms(const Cfg *c)
{
	int32_t n = c->nblock + 1;
	uint8_t *all = xmalloc((size_t)n), *seen = xmalloc((size_t)n);
	reach_avoiding(c, 0, 0, -1, all);
	CHECK_EQ(c->idom[0], 0);
	CHECK_EQ(c->ipdom[c->exit], c->exit);
	for (int32_t b = 0; b < n; b++) CHECK_EQ(all[b], c->rpo_index[b] < c->nreach);
	for (int32_t a = 0; a < n; a++) {
		reach_avoiding(c, 0, 0, a, seen);
		for (int32_t b = 0; b < n; b++) {
			int dom = a == b || (all[a] && all[b] && !seen[b]);
			CHECK_EQ(cfg_dominates(c, a, b), dom);
		}
		reach_avoiding(c, 1, c->exit, a, seen);
		for (int32_t b = 0; b < n; b++)
			CHECK_EQ(cfg_postdominates(c, a, b), a == b || !seen[b]);
	}
	for (int32_t b = 0; b < n; b++) {
		if (!all[b]) CHECK_EQ(c->idom[b], -1);
		for (int32_t a = 0; a < n; a++) {       /* strict dominators dominate idom */
			if (b && all[b] && a != b && cfg_dominates(c, a, b))
				CHECK(cfg_dominates(c, a, c->idom[b]));
			if (b != c->exit && a != b && cfg_postdominates(c, a, b))
				CHECK(cfg_postdominates(c, a, c->ipdom[b]));
		}
		if (b && all[b]) CHECK(c->idom[b] != b && cfg_dominates(c, c->idom[b], b));
		if (b != c->exit) CHECK(c->ipdom[b] != b && cfg_postdominates(c, c->ipdom[b], b));
	}
	free(all);
	free(seen);
}

static void check_loops(const Cfg *c)
{
	for (int32_t i = 0; i < c->nloop; i++) {
		const Loop *l = &c->loops[i];
		int32_t nbody = 0;
		for (int32_t b = 0; b <= c->nblock; b++) {
			if (!cfg_in_loop(c, i, b)) continue;
			nbody++;
			CHECK(cfg_dominates(c, l->header, b));
			CHECK(c->loop_depth[b] >= l->depth);
		}
		CHECK_EQ(nbody, l->nbody);
		if (l->parent >= 0) {
			CHECK(l->parent < i);
			CHECK_EQ(l->depth, c->loops[l->parent].depth + 1);
			for (int32_t b = 0; b <= c->nblock; b++)
				if (cfg_in_loop(c, i, b)) CHECK(cfg_in_loop(c, l->parent, b));
		}
	}
	CHECK_EQ(c->reducible, c->nirredge == 0);
	CHECK_EQ(c->reducible, c->limit_size <= 1);
}

static void check_intervals(const Cfg *c)
{
	int32_t *seen = xcalloc((size_t)c->nblock + 1, sizeof(int32_t));
	CHECK_EQ(c->ivl_start[c->nivl], c->nblock);
	CHECK_EQ(c->ivl_of[c->exit], -1);
	for (int32_t i = 0; i < c->nivl; i++) {
		int32_t h = c->ivl_header[i];
		CHECK_EQ(c->ivl_blocks[c->ivl_start[i]], h);
		for (int32_t k = c->ivl_start[i]; k < c->ivl_start[i + 1]; k++) {
			int32_t b = c->ivl_blocks[k];
			seen[b]++;
			CHECK_EQ(c->ivl_of[b], i);
			if (b == h) continue;
			int breach = c->rpo_index[b] < c->nreach;
			for (int32_t j = 0; j < c->blocks[b].npred; j++) {   /* single entry */
				int32_t p = c->blocks[b].pred[j];
				if (breach && c->rpo_index[p] >= c->nreach) continue;
				CHECK_EQ(c->ivl_of[p], i);
			}
		}
		/* a header that is not the entry has a predecessor outside */
		int out = h == 0;
		for (int32_t j = 0; j < c->blocks[h].npred; j++)
			out |= c->ivl_of[c->blocks[h].pred[j]] != i;
		CHECK(out || c->rpo_index[h] >= c->nreach);
	}
	for (int32_t b = 0; b < c->nblock; b++) CHECK_EQ(seen[b], 1);
	for (int32_t i = 0; i < c->nloop; i++)          /* loop headers head intervals */
		CHECK_EQ(c->ivl_header[c->ivl_of[c->loops[i].header]], c->loops[i].header);
	free(seen);
}

static void check_cfg(const Cfg *c)
{
	check_edges(c);
	check_doms(c);
	check_loops(c);
	check_intervals(c);
}

static TFunc tf;

/* build, check, compare the dump with `want`; returns the Cfg */
static Cfg *golden(const char *src, const char *want)
{
	Cfg *c = cfg_build(tf_build(&tf, src));
	check_cfg(c);
	char *got = dump(c, NULL);
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
	return c;
}

/* ---- golden tests ------------------------------------------------------ */

/* if/else: the branch reconverges at the join (ins 5) */
TEST(cfg_if_else_diamond)
{
	const char *src =
		"     add\n"               /* 0 */
		"     @p bra L1\n"         /* 1 */
		"     sub\n"               /* 2 */
		"     bra L2\n"            /* 3 */
		"L1:  mul\n"               /* 4 */
		"L2:  ret\n";              /* 5 */
	cfg_free(golden(src,
	"cfg ?: 4 blocks, 0 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,1]: succ b2 b1; pred -; idom b0; ipdom b3; depth 0; ivl 0; reconv 5\n"
	"b1 [2,3]: succ b3; pred b0; idom b0; ipdom b3; depth 0; ivl 0\n"
	"b2 [4,4] L1: succ b3; pred b0; idom b0; ipdom b3; depth 0; ivl 0\n"
	"b3 [5,5] L2: succ exit; pred b1 b2; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b3; idom b3; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b2 b1 b3\n"));
}

/* an if/else inside a do-while loop: reconverge at the join, then after the loop */
TEST(cfg_if_inside_loop)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  setp\n"              /* 1 */
		"     @p bra L1\n"         /* 2 */
		"     add\n"               /* 3 */
		"     bra L2\n"            /* 4 */
		"L1:  sub\n"               /* 5 */
		"L2:  setp\n"              /* 6 */
		"     @p bra L0\n"         /* 7 */
		"     ret\n";              /* 8 */
	cfg_free(golden(src,
	"cfg ?: 6 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,2] L0: succ b3 b2; pred b0 b4; idom b0; ipdom b4; depth 1; ivl 1; reconv 6\n"
	"b2 [3,4]: succ b4; pred b1; idom b1; ipdom b4; depth 1; ivl 1\n"
	"b3 [5,5] L1: succ b4; pred b1; idom b1; ipdom b4; depth 1; ivl 1\n"
	"b4 [6,7] L2: succ b1 b5; pred b2 b3; idom b1; ipdom b5; depth 1; ivl 1; reconv 8\n"
	"b5 [8,8]: succ exit; pred b4; idom b4; ipdom exit; depth 0; ivl 1\n"
	"exit: pred b5; idom b5; ipdom exit\n"
	"loop 0: header b1; parent -; depth 1; body b1 b2 b3 b4\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1 b3 b2 b4 b5\n"));
}

/* while loop with continue (ins 4) and break (ins 6): all reconverge after it */
TEST(cfg_while_break_continue)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  setp\n"              /* 1 */
		"     @!p bra L3\n"        /* 2 */
		"     add\n"               /* 3 */
		"     @p bra L0\n"         /* 4 */
		"     sub\n"               /* 5 */
		"     @p bra L3\n"         /* 6 */
		"     mul\n"               /* 7 */
		"     bra L0\n"            /* 8 */
		"L3:  ret\n";              /* 9 */
	cfg_free(golden(src,
	"cfg ?: 6 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,2] L0: succ b5 b2; pred b0 b2 b4; idom b0; ipdom b5; depth 1; ivl 1; reconv 9\n"
	"b2 [3,4]: succ b1 b3; pred b1; idom b1; ipdom b5; depth 1; ivl 1; reconv 9\n"
	"b3 [5,6]: succ b5 b4; pred b2; idom b2; ipdom b5; depth 1; ivl 1; reconv 9\n"
	"b4 [7,8]: succ b1; pred b3; idom b3; ipdom b1; depth 1; ivl 1\n"
	"b5 [9,9] L3: succ exit; pred b1 b3; idom b1; ipdom exit; depth 0; ivl 1\n"
	"exit: pred b5; idom b5; ipdom exit\n"
	"loop 0: header b1; parent -; depth 1; body b1 b2 b3 b4\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1 b2 b3 b5 b4\n"));
}

/* a return inside a loop: the loop's branches reconverge only at the exit */
TEST(cfg_early_return_in_loop)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  add\n"               /* 1 */
		"     @p bra L1\n"         /* 2 */
		"     ret\n"               /* 3 */
		"L1:  setp\n"              /* 4 */
		"     @p bra L0\n"         /* 5 */
		"     st\n"                /* 6 */
		"     ret\n";              /* 7 */
	cfg_free(golden(src,
	"cfg ?: 5 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,2] L0: succ b3 b2; pred b0 b3; idom b0; ipdom exit; depth 1; ivl 1; reconv -1\n"
	"b2 [3,3]: succ exit; pred b1; idom b1; ipdom exit; depth 0; ivl 1\n"
	"b3 [4,5] L1: succ b1 b4; pred b1; idom b1; ipdom exit; depth 1; ivl 1; reconv -1\n"
	"b4 [6,7]: succ exit; pred b3; idom b3; ipdom exit; depth 0; ivl 1\n"
	"exit: pred b2 b4; idom b1; ipdom exit\n"
	"loop 0: header b1; parent -; depth 1; body b1 b3\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1 b3 b2 b4\n"));
}

/* @p ret is a conditional transfer to the exit */
TEST(cfg_guarded_ret)
{
	const char *src =
		"     setp\n"              /* 0 */
		"     @p ret\n"            /* 1 */
		"     add\n"               /* 2 */
		"     ret\n";              /* 3 */
	cfg_free(golden(src,
	"cfg ?: 2 blocks, 0 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,1]: succ exit b1; pred -; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b1 [2,3]: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b0 b1; idom b0; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b1\n"));
}

/* a cycle b1<->b2 entered at both: no natural loop, no reduction */
TEST(cfg_irreducible_two_entry_loop)
{
	const char *src =
		"     @p bra L1\n"         /* 0 */
		"L0:  add\n"               /* 1 */
		"     @p bra L2\n"         /* 2 */
		"L1:  sub\n"               /* 3 */
		"     @p bra L0\n"         /* 4 */
		"L2:  ret\n";              /* 5 */
	cfg_free(golden(src,
	"cfg ?: 4 blocks, 0 loops, 4 intervals, irreducible, derived 1 limit 4\n"
	"b0 [0,0]: succ b2 b1; pred -; idom b0; ipdom b3; depth 0; ivl 0; reconv 5\n"
	"b1 [1,2] L0: succ b3 b2; pred b0 b2; idom b0; ipdom b3; depth 0; ivl 2; reconv 5\n"
	"b2 [3,4] L1: succ b1 b3; pred b0 b1; idom b0; ipdom b3; depth 0; ivl 1; reconv 5\n"
	"b3 [5,5] L2: succ exit; pred b1 b2; idom b0; ipdom exit; depth 0; ivl 3\n"
	"exit: pred b3; idom b3; ipdom exit\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b2; blocks b2\n"
	"ivl 2: header b1; blocks b1\n"
	"ivl 3: header b3; blocks b3\n"));
}

/* no path to the exit: a fake edge from the latch b4 makes b4 the
 * reconvergence point of the branch at ins 1, not the exit */
TEST(cfg_infinite_loop)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  @p bra L1\n"         /* 1 */
		"     add\n"               /* 2 */
		"     bra L2\n"            /* 3 */
		"L1:  sub\n"               /* 4 */
		"L2:  bra L0\n";           /* 5 */
	cfg_free(golden(src,
	"cfg ?: 5 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,1] L0: succ b3 b2; pred b0 b4; idom b0; ipdom b4; depth 1; ivl 1; reconv 5\n"
	"b2 [2,3]: succ b4; pred b1; idom b1; ipdom b4; depth 1; ivl 1\n"
	"b3 [4,4] L1: succ b4; pred b1; idom b1; ipdom b4; depth 1; ivl 1\n"
	"b4 [5,5] L2: succ b1; pred b2 b3; idom b1; ipdom exit; depth 1; ivl 1\n"
	"exit: pred -; idom -; ipdom exit; unreachable\n"
	"loop 0: header b1; parent -; depth 1; body b1 b2 b3 b4\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1 b3 b2 b4\n"
	"fake b4 -> exit\n"));
}

/* an infinite self loop beside a ret */
TEST(cfg_infinite_self_loop)
{
	const char *src =
		"     @p bra L1\n"         /* 0 */
		"     ret\n"               /* 1 */
		"L1:  bra L1\n";           /* 2 */
	cfg_free(golden(src,
	"cfg ?: 3 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,0]: succ b2 b1; pred -; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b1 [1,1]: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"b2 [2,2] L1: succ b2; pred b0 b2; idom b0; ipdom exit; depth 1; ivl 1\n"
	"exit: pred b1; idom b1; ipdom exit\n"
	"loop 0: header b2; parent -; depth 1; body b2\n"
	"ivl 0: header b0; blocks b0 b1\n"
	"ivl 1: header b2; blocks b2\n"
	"fake b2 -> exit\n"));
}

/* code after an unconditional bra: unreachable, still has an ipdom and interval */
TEST(cfg_unreachable_block)
{
	const char *src =
		"     add\n"               /* 0 */
		"     bra L1\n"            /* 1 */
		"     sub\n"               /* 2 */
		"     mul\n"               /* 3 */
		"L1:  ret\n";              /* 4 */
	cfg_free(golden(src,
	"cfg ?: 3 blocks, 0 loops, 2 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,1]: succ b2; pred -; idom b0; ipdom b2; depth 0; ivl 0\n"
	"b1 [2,3]: succ b2; pred -; idom -; ipdom b2; depth 0; ivl 1; unreachable\n"
	"b2 [4,4] L1: succ exit; pred b0 b1; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b2; idom b2; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b2\n"
	"ivl 1: header b1; blocks b1\n"));
}

/* a branch to a label after the last instruction goes to the exit */
TEST(cfg_label_at_end)
{
	const char *src =
		"     @p bra L1\n"         /* 0 */
		"     add\n"               /* 1 */
		"L1:\n";
	cfg_free(golden(src,
	"cfg ?: 2 blocks, 0 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,0]: succ exit b1; pred -; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b1 [1,1]: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b0 b1; idom b0; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b1\n"));
}

/* no instructions: the exit is the entry */
TEST(cfg_empty_body)
{
	const char *src = "";
	cfg_free(golden(src,
	"cfg ?: 0 blocks, 0 loops, 0 intervals, reducible, derived 1 limit 0\n"
	"exit: pred -; idom exit; ipdom exit\n"));
}

/* { } pseudos: the } after a bra stays in the bra's block */
TEST(cfg_scope_pseudos)
{
	const char *src =
		"     {\n"                 /* 0 */
		"     add\n"               /* 1 */
		"     @p bra L1\n"         /* 2 */
		"     sub\n"               /* 3 */
		"     bra L2\n"            /* 4 */
		"     }\n"                 /* 5 */
		"L1:  mul\n"               /* 6 */
		"L2:  ret\n";              /* 7 */
	cfg_free(golden(src,
	"cfg ?: 4 blocks, 0 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,2]: succ b2 b1; pred -; idom b0; ipdom b3; depth 0; ivl 0; reconv 7\n"
	"b1 [3,5]: succ b3; pred b0; idom b0; ipdom b3; depth 0; ivl 0\n"
	"b2 [6,6] L1: succ b3; pred b0; idom b0; ipdom b3; depth 0; ivl 0\n"
	"b3 [7,7] L2: succ exit; pred b1 b2; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b3; idom b3; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b2 b1 b3\n"));
}

/* two nested loops: derived sequence G0..G3 */
TEST(cfg_nested_loops)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  add\n"               /* 1 */
		"L1:  sub\n"               /* 2 */
		"     @p bra L1\n"         /* 3 */
		"     @p bra L0\n"         /* 4 */
		"     ret\n";              /* 5 */
	cfg_free(golden(src,
	"cfg ?: 5 blocks, 2 loops, 3 intervals, reducible, derived 4 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,1] L0: succ b2; pred b0 b3; idom b0; ipdom b2; depth 1; ivl 1\n"
	"b2 [2,3] L1: succ b2 b3; pred b1 b2; idom b1; ipdom b3; depth 2; ivl 2; reconv 4\n"
	"b3 [4,4]: succ b1 b4; pred b2; idom b2; ipdom b4; depth 1; ivl 2; reconv 5\n"
	"b4 [5,5]: succ exit; pred b3; idom b3; ipdom exit; depth 0; ivl 2\n"
	"exit: pred b4; idom b4; ipdom exit\n"
	"loop 0: header b1; parent -; depth 1; body b1 b2 b3\n"
	"loop 1: header b2; parent 0; depth 2; body b2\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1\n"
	"ivl 2: header b2; blocks b2 b3 b4\n"));
}

/* an infinite outer loop around an inner loop and an if: the fake edge
 * leaves from the outer latch b7 */
TEST(cfg_infinite_nested_loops)
{
	const char *src =
		"     mov\n"               /* 0 */
		"L0:  add\n"               /* 1 */
		"L1:  @p bra L2\n"         /* 2 */
		"     sub\n"               /* 3 */
		"L2:  @p bra L1\n"         /* 4 */
		"     @p bra L3\n"         /* 5 */
		"     mul\n"               /* 6 */
		"L3:  bra L0\n";           /* 7 */
	cfg_free(golden(src,
	"cfg ?: 8 blocks, 2 loops, 3 intervals, reducible, derived 4 limit 1\n"
	"b0 [0,0]: succ b1; pred -; idom b0; ipdom b1; depth 0; ivl 0\n"
	"b1 [1,1] L0: succ b2; pred b0 b7; idom b0; ipdom b2; depth 1; ivl 1\n"
	"b2 [2,2] L1: succ b4 b3; pred b1 b4; idom b1; ipdom b4; depth 2; ivl 2; reconv 4\n"
	"b3 [3,3]: succ b4; pred b2; idom b2; ipdom b4; depth 2; ivl 2\n"
	"b4 [4,4] L2: succ b2 b5; pred b2 b3; idom b2; ipdom b5; depth 2; ivl 2; reconv 5\n"
	"b5 [5,5]: succ b7 b6; pred b4; idom b4; ipdom b7; depth 1; ivl 2; reconv 7\n"
	"b6 [6,6]: succ b7; pred b5; idom b5; ipdom b7; depth 1; ivl 2\n"
	"b7 [7,7] L3: succ b1; pred b5 b6; idom b5; ipdom exit; depth 1; ivl 2\n"
	"exit: pred -; idom -; ipdom exit; unreachable\n"
	"loop 0: header b1; parent -; depth 1; body b1 b2 b3 b4 b5 b6 b7\n"
	"loop 1: header b2; parent 0; depth 2; body b2 b3 b4\n"
	"ivl 0: header b0; blocks b0\n"
	"ivl 1: header b1; blocks b1\n"
	"ivl 2: header b2; blocks b2 b3 b4 b5 b6 b7\n"
	"fake b7 -> exit\n"));
}

/* ---- API details --------------------------------------------------------- */

/* labels that no branch targets do not split blocks; call does not end one;
   exit and trap do; a label may point at a pseudo; bra.uni is a branch */
TEST(cfg_leaders)
{
	const char *src =
		"     add\n"               /* 0 */
		"L3:  call\n"              /* 1 */
		"     @p bra L1\n"         /* 2 */
		"     exit\n"              /* 3 */
		"L1:  {\n"                 /* 4 */
		"     @!p trap\n"          /* 5 */
		"     }\n"                 /* 6 */
		"     bra.uni L1\n";       /* 7 */
	Cfg *c = golden(src,
	"cfg ?: 4 blocks, 1 loops, 2 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,2]: succ b2 b1; pred -; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b1 [3,3]: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"b2 [4,6] L1: succ exit b3; pred b0 b3; idom b0; ipdom exit; depth 1; ivl 1; reconv -1\n"
	"b3 [7,7]: succ b2; pred b2; idom b2; ipdom b2; depth 1; ivl 1\n"
	"exit: pred b1 b2; idom b0; ipdom exit\n"
	"loop 0: header b2; parent -; depth 1; body b2 b3\n"
	"ivl 0: header b0; blocks b0 b1\n"
	"ivl 1: header b2; blocks b2 b3\n");
	CHECK_EQ(c->blocks[2].term, 5);       /* the trap, not the } after it */
	CHECK_EQ(c->blocks[3].term, 7);
	CHECK_EQ(cfg_reconverge_pc(c, 7), 4);  /* ipdom of b3 is b2, whose first ins is { */
	CHECK_EQ(cfg_reconverge_pc(c, 2), -1);
	CHECK_EQ(c->loop_of[3], 0);
	CHECK_EQ(c->loop_of[1], -1);
	cfg_free(c);
}

/* the entry heads a loop; a bra without a label (cannot come from the
   parser) goes to the exit rather than nowhere */
TEST(cfg_loop_at_entry)
{
	const char *src =
		"L0:  add\n"               /* 0 */
		"     @p bra L0\n"         /* 1 */
		"     @p bra\n"            /* 2 */
		"     ret\n";              /* 3 */
	cfg_free(golden(src,
	"cfg ?: 3 blocks, 1 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,1] L0: succ b0 b1; pred b0; idom b0; ipdom b1; depth 1; ivl 0; reconv 2\n"
	"b1 [2,2]: succ exit b2; pred b0; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b2 [3,3]: succ exit; pred b1; idom b1; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b1 b2; idom b1; ipdom exit\n"
	"loop 0: header b0; parent -; depth 1; body b0\n"
	"ivl 0: header b0; blocks b0 b1 b2\n"));
}

/* ---- random and large functions ----------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* n random instructions, nlab labels at random places (end included) */
static Func *random_func(TFunc *t, uint64_t *r, int n, int nlab)
{
	static const char *const pick[] = {
		"add", "add", "add", "add", "bra", "@p bra", "@p bra", "@!p bra", "ret", "@p ret",
		"exit", "@p trap", "{", "}", "call",
	};
	int npick = (int)(sizeof pick / sizeof *pick);
	tf_build(t, "");
	for (int i = 0; i < n; i++) {
		const char *p = pick[rnd(r) % (uint64_t)npick];
		char buf[32];
		if (strstr(p, "bra") && (nlab == 0 || rnd(r) % 50 == 0))
			snprintf(buf, sizeof buf, "%s", p);        /* no label */
		else if (strstr(p, "bra"))
			snprintf(buf, sizeof buf, "%s L%d", p, (int)(rnd(r) % (uint64_t)nlab));
		else
			snprintf(buf, sizeof buf, "%s", p);
		tf_stmt(t, buf, buf + strlen(buf));
	}
	t->f.nlabel = nlab;
	for (int k = 0; k < nlab; k++) t->labels[k].ins = (int32_t)(rnd(r) % (uint64_t)(n + 1));
	return &t->f;
}

/* brute-force every property on thousands of random small functions,
   irreducible and infinite ones included */
TEST(cfg_random_small)
{
	uint64_t r = 88172645463325252ull;
	int irreducible = 0, fake = 0, unreachable = 0, fails = unit_failed_checks;
	for (int it = 0; it < 3000 && unit_failed_checks == fails; it++) {
		int n = (int)(rnd(&r) % 40), nlab = (int)(rnd(&r) % 9);
		Cfg *c = cfg_build(random_func(&tf, &r, n, nlab));
		check_cfg(c);
		if (unit_failed_checks != fails) {
			for (int i = 0; i < tf.f.nins; i++)
				fprintf(stderr, "%d: %s %d g%d\n", i, op_info[tf.ins[i].op].name,
				        tf.ins[i].o[0].kind == OPK_LABEL ? tf.ins[i].o[0].reg : -1,
				        tf.ins[i].guard);
			for (int k = 0; k < tf.f.nlabel; k++)
				fprintf(stderr, "L%d: %d\n", k, tf.labels[k].ins);
			cfg_dump(c, NULL, stderr);
		}
		irreducible += !c->reducible;
		fake += c->nfake > 0;
		unreachable += c->nreach < c->nblock + 1;
		cfg_free(c);
	}
	CHECK(irreducible > 50);     /* the generator covers the hard cases */
	CHECK(fake > 50);
	CHECK(unreachable > 50);
}

/* structured code: straight runs, if/else, do-while, while with break,
   early returns, nested up to `depth` */
static void gen_struct(TFunc *t, uint64_t *r, int depth, int *lab, int budget)
{
	while (t->f.nins < budget) {
		int k = depth > 0 ? (int)(rnd(r) % 6) : 0;
		int a = *lab, b = *lab + 1;
		char s[64];
		*lab += k >= 2 ? 2 : 0;
		int end = t->f.nins + (int)(rnd(r) % 60) + 4;
		if (end > budget) end = budget;
		switch (k) {
		case 0: case 1:
			for (int i = (int)(rnd(r) % 5); i >= 0; i--) tf_build_stmt(t, "add");
			if (rnd(r) % 4 == 0) return;
			continue;
		case 2:
			tf_build_stmt(t, "setp");
			snprintf(s, sizeof s, "@p bra L%d", a);
			tf_build_stmt(t, s);
			gen_struct(t, r, depth - 1, lab, end);
			snprintf(s, sizeof s, "bra L%d", b);
			tf_build_stmt(t, s);
			tf_label(t, a);
			gen_struct(t, r, depth - 1, lab, end + 30);
			tf_label(t, b);
			break;
		case 3:
			tf_label(t, a);
			gen_struct(t, r, depth - 1, lab, end);
			snprintf(s, sizeof s, "@p bra L%d", a);
			tf_build_stmt(t, s);
			break;
		case 4:
			tf_label(t, a);
			snprintf(s, sizeof s, "@p bra L%d", b);
			tf_build_stmt(t, s);
			gen_struct(t, r, depth - 1, lab, end);
			tf_build_stmt(t, s);                   /* break */
			gen_struct(t, r, depth - 1, lab, end + 30);
			snprintf(s, sizeof s, "bra L%d", a);
			tf_build_stmt(t, s);
			tf_label(t, b);
			break;
		default:
			tf_build_stmt(t, "@p ret");
			break;
		}
	}
}

/* a 10,000-instruction kernel: well under the few milliseconds asked for */
TEST(cfg_large_fast)
{
	uint64_t r = 2463534242ull;
	int lab = 0;
	tf_build(&tf, "");
	while (tf.f.nins < 10000) gen_struct(&tf, &r, 6, &lab, 10000);
	tf_build_stmt(&tf, "ret");
	double t0 = now_sec();
	Cfg *c = cfg_build(&tf.f);
	double dt = now_sec() - t0;
	CHECK(tf.f.nins >= 10000);
	CHECK(c->nblock > 1000);
	CHECK(c->nloop > 50);
	CHECK(c->reducible);
	CHECK_EQ(c->limit_size, 1);
	CHECK(dt < 0.25);            /* sanitizer builds included */
	check_edges(c);
	check_loops(c);
	check_intervals(c);
	for (int32_t b = 1; b < c->nblock; b++)
		if (c->idom[b] >= 0) CHECK(cfg_dominates(c, c->idom[b], b));
	for (int32_t b = 0; b < c->nblock; b++) CHECK(cfg_postdominates(c, c->ipdom[b], b));
	int maxdepth = 0;
	for (int32_t i = 0; i < c->nloop; i++)
		if (c->loops[i].depth > maxdepth) maxdepth = c->loops[i].depth;
	if (getenv("RFSIM_CFG_TIME"))
		fprintf(stderr, "cfg_build: %d ins, %d blocks, %d loops (depth %d), %d intervals, "
		        "%.3f ms\n", tf.f.nins, c->nblock, c->nloop, maxdepth, c->nivl, dt * 1e3);
	cfg_free(c);
}

/* ---- parsed PTX ------------------------------------------------------------ */

/* a device function with an early return out of a { } block, and a kernel
   with a guarded body around a loop that holds an if/else */
static const char *const ptx_k1 =
	".version 8.0\n"
	".target sm_80\n"
	".address_size 64\n"
	"\n"
	".func (.param .b32 ret) clamp(.param .b32 x)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<3>;\n"
	"\n"
	"\tld.param.b32 %r1, [x];\n"
	"\tsetp.lt.s32 %p1, %r1, 0;\n"
	"\t@%p1 bra $Lneg;\n"
	"\t{\n"
	"\t.reg .b32 %t;\n"
	"\tmin.s32 %t, %r1, 255;\n"
	"\tst.param.b32 [ret], %t;\n"
	"\t}\n"
	"\tret;\n"
	"$Lneg:\n"
	"\tmov.b32 %r2, 0;\n"
	"\tst.param.b32 [ret], %r2;\n"
	"\tret;\n"
	"}\n"
	"\n"
	".visible .entry k(.param .u64 p, .param .u32 n)\n"
	"{\n"
	"\t.reg .pred %p<3>;\n"
	"\t.reg .b32 %r<8>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.ge.u32 %p1, %r2, %r1;\n"
	"\t@%p1 bra $Ldone;\n"
	"\tmov.u32 %r3, 0;\n"
	"$Lloop:\n"
	"\tand.b32 %r4, %r3, 1;\n"
	"\tsetp.eq.u32 %p2, %r4, 0;\n"
	"\t@%p2 bra $Leven;\n"
	"\tadd.u32 %r3, %r3, 3;\n"
	"\tbra.uni $Lnext;\n"
	"$Leven:\n"
	"\tadd.u32 %r3, %r3, 1;\n"
	"$Lnext:\n"
	"\tsetp.lt.u32 %p2, %r3, %r1;\n"
	"\t@%p2 bra $Lloop;\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd2], %r3;\n"
	"$Ldone:\n"
	"\tret;\n"
	"}\n";

TEST(cfg_ptx_golden)
{
	Module *m = tf_parse(ptx_k1);
	const char *want[] = {
	"cfg clamp: 3 blocks, 0 loops, 1 intervals, reducible, derived 2 limit 1\n"
	"b0 [0,3]: succ b2 b1; pred -; idom b0; ipdom exit; depth 0; ivl 0; reconv -1\n"
	"b1 [4,7]: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"b2 [8,10] $Lneg: succ exit; pred b0; idom b0; ipdom exit; depth 0; ivl 0\n"
	"exit: pred b1 b2; idom b0; ipdom exit\n"
	"ivl 0: header b0; blocks b0 b2 b1\n",
	"cfg k: 8 blocks, 1 loops, 3 intervals, reducible, derived 3 limit 1\n"
	"b0 [0,4]: succ b7 b1; pred -; idom b0; ipdom b7; depth 0; ivl 0; reconv 18\n"
	"b1 [5,5]: succ b2; pred b0; idom b0; ipdom b2; depth 0; ivl 0\n"
	"b2 [6,8] $Lloop: succ b4 b3; pred b1 b5; idom b1; ipdom b5; depth 1; ivl 2; reconv 12\n"
	"b3 [9,10]: succ b5; pred b2; idom b2; ipdom b5; depth 1; ivl 2\n"
	"b4 [11,11] $Leven: succ b5; pred b2; idom b2; ipdom b5; depth 1; ivl 2\n"
	"b5 [12,13] $Lnext: succ b2 b6; pred b3 b4; idom b2; ipdom b6; depth 1; ivl 2; reconv 14\n"
	"b6 [14,17]: succ b7; pred b5; idom b5; ipdom b7; depth 0; ivl 2\n"
	"b7 [18,18] $Ldone: succ exit; pred b0 b6; idom b0; ipdom exit; depth 0; ivl 1\n"
	"exit: pred b7; idom b7; ipdom exit\n"
	"loop 0: header b2; parent -; depth 1; body b2 b3 b4 b5\n"
	"ivl 0: header b0; blocks b0 b1\n"
	"ivl 1: header b7; blocks b7\n"
	"ivl 2: header b2; blocks b2 b4 b3 b5 b6\n",
	};
	CHECK_EQ(m->nfunc, 2);
	for (int32_t i = 0; i < m->nfunc && i < 2; i++) {
		Cfg *c = cfg_build(&m->funcs[i]);
		check_cfg(c);
		char *got = dump(c, m);
		CHECK_STR(got, want[i]);
		free(got);
		cfg_free(c);
	}
	ir_free(m);
}

static void check_ptx_func(const Module *m, const Func *f, const char *path)
{
	(void)m;
	(void)path;
	Cfg *c = cfg_build(f);
	if (c->nblock <= 400) {
		check_cfg(c);
	} else {                     /* the brute-force checks are quadratic */
		check_edges(c);
		check_loops(c);
		check_intervals(c);
	}
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bb = &c->blocks[b];
		if (bb->nsucc < 2) continue;
		int32_t p = c->ipdom[b];
		CHECK_EQ(cfg_reconverge_pc(c, bb->term), p == c->exit ? -1 : c->blocks[p].first);
	}
	CHECK(c->reducible);         /* nvcc emits structured code */
	cfg_free(c);
}

/* every function of every PTX file in the repository */
TEST(cfg_ptx_files)
{
	int n = tf_each_ptx(check_ptx_func);
	if (getenv("RFSIM_CFG_TIME")) fprintf(stderr, "cfg_ptx_files: %d functions\n", n);
}
