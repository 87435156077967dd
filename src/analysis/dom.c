/*
 * dom.c -- depth-first orders, dominators and post-dominators.
 *
 * Algorithm.  Both trees are computed by Lengauer and Tarjan's algorithm
 * ("A Fast Algorithm for Finding Dominators in a Flowgraph", TOPLAS 1979;
 * the simple version with path compression, O(m log n)): number the nodes
 * in DFS preorder, compute each node's semidominator from its predecessors
 * in reverse preorder through a link-eval forest, and derive the immediate
 * dominators from the semidominators.  Cooper, Harvey and Kennedy's
 * iterative algorithm, which rfsim used before, is a fraction of the code
 * but quadratic when many joins sit far below their dominator in a deep
 * tree: the post-dominators of a 20,000-case switch took 20 s.  The tree is
 * unique, so the choice changes no result.  Post-dominators are the same
 * algorithm on the reverse graph, rooted at the virtual exit.
 *
 * Orders.  rpo[] is the reverse postorder of a DFS forest over successor
 * edges, visited in list order (taken target before fall-through): the
 * tree from the entry first (positions 0 .. nreach), then one tree per
 * still-unvisited node in id order, each in its own reverse postorder.
 * Edges between trees only go from later trees to earlier ones, so an
 * edge u->v is retreating exactly when rpo_index[v] <= rpo_index[u].
 * Unreachable blocks get idom -1 but a real ipdom: their post-dominators
 * are well defined and a later pass may still want them.
 *
 * Infinite loops.  A block from which no path reaches the exit would have
 * no post-dominator.  The standard trick (as GCC's connect_infinite_loops
 * _to_exit and LLVM's post-dominator roots do) adds fake edges to the
 * exit: repeatedly take the not-yet-connected node that is *last* in rpo,
 * record a fake edge from it to the exit, and mark everything that reaches
 * it.  That node's successors all lie earlier in rpo (those later are
 * already connected, and no connected node can be a successor of an
 * unconnected one), so it is a sink of the forward-edge DAG -- in a loop,
 * the latch rather than the header.  Branches inside an infinite loop then
 * reconverge where they join before the latch instead of never.  The fake
 * edges are listed in Cfg.fake and used only for post-dominance; succ/pred
 * hold real control flow only.
 *
 * Tree numbers.  dom_pre/dom_end number each tree in preorder so that
 * "a dominates b" is two comparisons, for loop detection and for clients;
 * pdom_depth says how far below the exit a block post-dominates, which
 * orders the reconvergence points of nested divergent regions (live_div.c,
 * and the timing model's timing/tlive.c).
 */
#include "analysis/cfg.h"

#include <assert.h>
#include <stdlib.h>

#include "base/base.h"

typedef struct Csr {         /* adjacency lists: adj[off[v] .. off[v + 1]) */
	int32_t n;
	int32_t *off;
	int32_t *adj;
} Csr;

/* g := succ (use_pred = 0) or pred lists of the blocks, plus the extra
   edges xsrc[i] -> xdst[i] */
static void csr_make(Csr *g, const Cfg *c, int use_pred, const int32_t *xsrc,
                     const int32_t *xdst, int32_t nx)
{
	int32_t n = c->nblock + 1, ne = nx;
	for (int32_t v = 0; v < n; v++) ne += use_pred ? c->blocks[v].npred : c->blocks[v].nsucc;
	g->n = n;
	g->off = xcalloc((size_t)n + 1, sizeof(int32_t));
	g->adj = xmalloc(sizeof(int32_t) * (size_t)(ne ? ne : 1));
	for (int32_t i = 0; i < nx; i++) g->off[xsrc[i] + 1]++;
	for (int32_t v = 0; v < n; v++) {
		const Block *b = &c->blocks[v];
		g->off[v + 1] += g->off[v] + (use_pred ? b->npred : b->nsucc);
	}
	int32_t *fill = xmalloc(sizeof(int32_t) * (size_t)n);
	for (int32_t v = 0; v < n; v++) {
		const Block *b = &c->blocks[v];
		int32_t k = use_pred ? b->npred : b->nsucc;
		const int32_t *l = use_pred ? b->pred : b->succ;
		fill[v] = g->off[v];
		for (int32_t i = 0; i < k; i++) g->adj[fill[v]++] = l[i];
	}
	for (int32_t i = 0; i < nx; i++) g->adj[fill[xsrc[i]]++] = xdst[i];
	free(fill);
}

static void csr_free(Csr *g)
{
	free(g->off);
	free(g->adj);
}

/* postorder of the DFS tree of g from r over unseen nodes, appended at
   post[*pos]; stk and it are scratch of g->n entries */
static void dfs_post(const Csr *g, int32_t r, uint8_t *seen, int32_t *stk, int32_t *it,
                     int32_t *post, int32_t *pos)
{
	int32_t sp = 0;
	seen[r] = 1;
	stk[sp] = r;
	it[sp++] = g->off[r];
	while (sp) {
		int32_t v = stk[sp - 1];
		if (it[sp - 1] < g->off[v + 1]) {
			int32_t w = g->adj[it[sp - 1]++];
			if (seen[w]) continue;
			seen[w] = 1;
			stk[sp] = w;
			it[sp++] = g->off[w];
		} else {
			post[(*pos)++] = v;
			sp--;
		}
	}
}

/* reverse postorder of the DFS forest rooted at root, then at each unseen
   node in id order (see the essay); returns the size of root's tree */
static int32_t dfs_order(const Csr *g, int32_t root, int32_t *rpo, int32_t *idx)
{
	int32_t n = g->n, pos = 0, first = -1;
	uint8_t *seen = xcalloc((size_t)n, 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * (size_t)n * 2), *it = stk + n;
	for (int32_t r = root, next = 0; r >= 0;) {
		int32_t start = pos;
		dfs_post(g, r, seen, stk, it, rpo, &pos);
		for (int32_t i = start, j = pos - 1; i < j; i++, j--) {
			int32_t t = rpo[i];
			rpo[i] = rpo[j];
			rpo[j] = t;
		}
		if (first < 0) first = pos;
		while (next < n && seen[next]) next++;
		r = next < n ? next : -1;
	}
	assert(pos == n);
	for (int32_t i = 0; i < n; i++) idx[rpo[i]] = i;
	free(seen);
	free(stk);
	return first;
}

typedef struct Lt {          /* Lengauer-Tarjan state, indexed by node */
	int32_t *dfn;            /* DFS preorder number, -1 unreached */
	int32_t *vertex;         /* node of each number */
	int32_t *parent;         /* DFS tree parent */
	int32_t *semi;           /* semidominator, as a number */
	int32_t *anc, *label;    /* the link-eval forest */
	int32_t *bhead, *bnext;  /* buckets: nodes whose semidominator is v */
	int32_t *stk, *it;
} Lt;

/* preorder numbers and tree parents of the DFS of g from root; returns how
   many nodes it reached */
static int32_t lt_dfs(const Csr *g, int32_t root, Lt *t)
{
	int32_t sp = 0, num = 0;
	t->dfn[root] = num, t->vertex[num++] = root, t->parent[root] = -1;
	t->stk[sp] = root, t->it[sp++] = g->off[root];
	while (sp) {
		int32_t v = t->stk[sp - 1];
		if (t->it[sp - 1] == g->off[v + 1]) {
			sp--;
			continue;
		}
		int32_t w = g->adj[t->it[sp - 1]++];
		if (t->dfn[w] >= 0) continue;
		t->dfn[w] = num, t->vertex[num++] = w, t->parent[w] = v;
		t->stk[sp] = w, t->it[sp++] = g->off[w];
	}
	return num;
}

/* the node of least semidominator on v's path in the forest, compressing it */
static int32_t lt_eval(Lt *t, int32_t v)
{
	if (t->anc[v] < 0) return v;
	int32_t sp = 0;
	for (int32_t x = v; t->anc[t->anc[x]] >= 0; x = t->anc[x]) t->stk[sp++] = x;
	while (sp) {
		int32_t x = t->stk[--sp], a = t->anc[x];
		if (t->semi[t->label[a]] < t->semi[t->label[x]]) t->label[x] = t->label[a];
		t->anc[x] = t->anc[a];
	}
	return t->label[v];
}

/* immediate dominators of the graph succ/pred from root (Lengauer and
   Tarjan, TOPLAS 1979, the simple O(m log n) version); -1 where unreached.
   Returns how many nodes root reaches */
static int32_t lengauer_tarjan(const Csr *succ, const Csr *pred, int32_t root, int32_t *idom)
{
	int32_t n = succ->n;
	Lt t;
	int32_t *mem = xmalloc(sizeof(int32_t) * (size_t)n * 10 + 1);
	t.dfn = mem, t.vertex = mem + n, t.parent = mem + 2 * n, t.semi = mem + 3 * n;
	t.anc = mem + 4 * n, t.label = mem + 5 * n, t.bhead = mem + 6 * n, t.bnext = mem + 7 * n;
	t.stk = mem + 8 * n, t.it = mem + 9 * n;
	for (int32_t v = 0; v < n; v++) {
		t.dfn[v] = t.anc[v] = t.bhead[v] = idom[v] = -1;
		t.label[v] = v;
	}
	int32_t num = lt_dfs(succ, root, &t);
	for (int32_t i = 0; i < num; i++) t.semi[t.vertex[i]] = i;
	for (int32_t i = num - 1; i > 0; i--) {
		int32_t w = t.vertex[i], p = t.parent[w];
		for (int32_t k = pred->off[w]; k < pred->off[w + 1]; k++) {
			int32_t v = pred->adj[k];
			if (t.dfn[v] < 0) continue;                  /* unreached */
			int32_t u = lt_eval(&t, v);
			if (t.semi[u] < t.semi[w]) t.semi[w] = t.semi[u];
		}
		int32_t sv = t.vertex[t.semi[w]];
		t.bnext[w] = t.bhead[sv], t.bhead[sv] = w;
		t.anc[w] = p;                                      /* link */
		for (int32_t v = t.bhead[p]; v >= 0; v = t.bnext[v]) {
			int32_t u = lt_eval(&t, v);
			idom[v] = t.semi[u] < t.semi[v] ? u : p;
		}
		t.bhead[p] = -1;
	}
	for (int32_t i = 1; i < num; i++) {
		int32_t w = t.vertex[i];
		if (idom[w] != t.vertex[t.semi[w]]) idom[w] = idom[idom[w]];
	}
	idom[root] = root;
	free(mem);
	return num;
}

/* preorder numbers of the tree given by parent[] (root's parent is itself,
   -1 outside the tree); end[v] is the largest number in v's subtree; depth
   (if not NULL) the edges from the root, -1 outside */
static void tree_number(int32_t n, int32_t root, const int32_t *parent, int32_t *pre,
                        int32_t *end, int32_t *depth)
{
	int32_t *off = xcalloc((size_t)n + 1, sizeof(int32_t));
	int32_t *kid = xmalloc(sizeof(int32_t) * (size_t)n * 3), *stk = kid + n, *it = stk + n;
	for (int32_t v = 0; v < n; v++) {
		pre[v] = end[v] = -1;
		if (v != root && parent[v] >= 0) off[parent[v] + 1]++;
	}
	for (int32_t v = 0; v < n; v++) off[v + 1] += off[v];
	for (int32_t v = 0; v < n; v++) it[v] = off[v];
	for (int32_t v = 0; v < n; v++)
		if (v != root && parent[v] >= 0) kid[it[parent[v]]++] = v;
	int32_t sp = 0, num = 0;
	for (int32_t v = 0; depth && v < n; v++) depth[v] = -1;
	if (depth) depth[root] = 0;
	pre[root] = num++;
	stk[sp] = root;
	it[sp++] = off[root];
	while (sp) {
		int32_t v = stk[sp - 1];
		if (it[sp - 1] < off[v + 1]) {
			int32_t w = kid[it[sp - 1]++];
			pre[w] = num++;
			if (depth) depth[w] = depth[v] + 1;
			stk[sp] = w;
			it[sp++] = off[w];
		} else {
			end[v] = num - 1;
			sp--;
		}
	}
	free(off);
	free(kid);
}

/* fake edges from nodes that cannot reach the exit (see the essay) */
static void find_fake(Cfg *c, const Csr *fpred)
{
	int32_t n = c->nblock + 1, nq = 0;
	uint8_t *mark = xcalloc((size_t)n, 1);
	int32_t *q = xmalloc(sizeof(int32_t) * (size_t)n);
	int32_t *fake = xmalloc(sizeof(int32_t) * (size_t)n);
	c->nfake = 0;
	for (int32_t i = n - 1, r = c->exit; r >= 0;) {
		mark[r] = 1;
		q[nq++] = r;
		for (int32_t h = nq - 1; h < nq; h++) {
			int32_t v = q[h];
			for (int32_t k = fpred->off[v]; k < fpred->off[v + 1]; k++)
				if (!mark[fpred->adj[k]]) {
					mark[fpred->adj[k]] = 1;
					q[nq++] = fpred->adj[k];
				}
		}
		while (i >= 0 && mark[c->rpo[i]]) i--;
		r = i >= 0 ? c->rpo[i] : -1;
		if (r >= 0) fake[c->nfake++] = r;
	}
	c->fake = arena_dup(c->arena, fake, sizeof(int32_t) * (size_t)c->nfake);
	free(mark);
	free(q);
	free(fake);
}

static void postdominators(Cfg *c)
{
	int32_t n = c->nblock + 1, nf = c->nfake;
	int32_t *xs = xmalloc(sizeof(int32_t) * (size_t)(nf ? nf : 1));
	for (int32_t i = 0; i < nf; i++) xs[i] = c->exit;
	Csr rsucc, rpred;                    /* the reverse graph, with fake edges */
	csr_make(&rsucc, c, 1, xs, c->fake, nf);
	csr_make(&rpred, c, 0, c->fake, xs, nf);
	int32_t nr = lengauer_tarjan(&rsucc, &rpred, c->exit, c->ipdom);
	assert(nr == n);
	(void)nr;
	free(xs);
	csr_free(&rsucc);
	csr_free(&rpred);
}

void dom_compute(Cfg *c)
{
	Arena *a = c->arena;
	int32_t n = c->nblock + 1;
	size_t sz = sizeof(int32_t) * (size_t)n;
	c->rpo = arena_alloc(a, sz);
	c->rpo_index = arena_alloc(a, sz);
	c->idom = arena_alloc(a, sz);
	c->ipdom = arena_alloc(a, sz);
	c->dom_pre = arena_alloc(a, sz);
	c->dom_end = arena_alloc(a, sz);
	c->pdom_pre = arena_alloc(a, sz);
	c->pdom_end = arena_alloc(a, sz);
	c->pdom_depth = arena_alloc(a, sz);
	Csr fsucc, fpred;
	csr_make(&fsucc, c, 0, NULL, NULL, 0);
	csr_make(&fpred, c, 1, NULL, NULL, 0);
	c->nreach = dfs_order(&fsucc, 0, c->rpo, c->rpo_index);
	lengauer_tarjan(&fsucc, &fpred, 0, c->idom);
	find_fake(c, &fpred);
	postdominators(c);
	tree_number(n, 0, c->idom, c->dom_pre, c->dom_end, NULL);
	tree_number(n, c->exit, c->ipdom, c->pdom_pre, c->pdom_end, c->pdom_depth);
	csr_free(&fsucc);
	csr_free(&fpred);
}

int cfg_dominates(const Cfg *c, int32_t a, int32_t b)
{
	if (a == b) return 1;
	if (c->dom_pre[a] < 0 || c->dom_pre[b] < 0) return 0;
	return c->dom_pre[a] <= c->dom_pre[b] && c->dom_pre[b] <= c->dom_end[a];
}

int cfg_postdominates(const Cfg *c, int32_t a, int32_t b)
{
	if (a == b) return 1;
	return c->pdom_pre[a] <= c->pdom_pre[b] && c->pdom_pre[b] <= c->pdom_end[a];
}
