/*
 * tlive.c -- the compiler's liveness facts about every register access of
 * the code the timing model runs (TProg.ann, .uses, .live; timing.h).
 *
 * Register-file caches decide by them: Gebhart et al. 3.3's last-use bits
 * let an RFC drop a dead value instead of writing it back; LTRF+ (4.3)
 * writes back and allocates only live registers; Butts and Sohi's use-based
 * cache inserts and evicts by a value's degree of use.  They are computed
 * here, once per launch, on the decoded code itself (slots of DIns, the
 * same register lists tins.c gives the pipeline), so they describe exactly
 * the registers the hardware model sees -- allocated or virtual, with
 * calls, after every compiler pass.
 *
 * Liveness is per function over its frame's slots, backward dataflow over
 * the pc-level control flow (bra: target, and the next pc when guarded;
 * an unguarded ret, exit or trap ends the path; call: the next pc, the
 * callee using a frame of its own).  A guarded write does not kill.  It is
 * warp-level, as any storage shared by the lanes of a warp needs
 * (live_div.c gives the same rule for the IR): for each divergent branch
 * (a guarded bra) the lanes on one side wait while the other side runs,
 * so every slot live into either side or into the reconvergence point
 * (DIns.reconv) is kept live over the whole region between the branch and
 * the reconvergence point, nested regions adding up.
 *
 *   TA_LAST  a read after which the value is dead: not live after the
 *            instruction, or overwritten by it.
 *   TA_DEAD  a write of a value that is not live after the instruction.
 *   uses     degree of use of a written value: how many reads it gets
 *            before it dies or is overwritten, if that count is the same
 *            on every path; TUSES_UNKNOWN otherwise.  Computed by a
 *            backward "remaining reads" dataflow whose meet keeps equal
 *            counts and turns unequal ones into unknown; a count that
 *            changes once computed (a value read around a loop back edge)
 *            is unknown too, so the dataflow needs one pass per loop level.
 *            A value read once on each side of a divergent branch counts
 *            1 (the paths agree), though a diverged warp reads it twice:
 *            the count is per thread, as a compiler's would be.
 *   live     slots live just before each pc (the register working set a
 *            warp needs from that point on).
 *   TA_NRBL  (Gebhart 5.3) the value is not read -- again, for a read --
 *            before the warp's next long-latency stall, on any path: a
 *            register-file cache need not keep it.  A long-latency stall
 *            point is an instruction that reads a register a long-latency
 *            load (TF_LONGLAT) may have written with no read of it since
 *            (a forward "may be pending" dataflow: the first reader waits,
 *            later ones find the value there), and every cp.async.wait_group
 *            and wait_all (they may wait for copies from global memory); the
 *            two-level scheduler suspends the warp there, before the
 *            instruction's own reads.
 *            A read that the instruction overwrites (or the value's last
 *            read) is NRBL; so is a write whose value is never read.
 *   llstall  per pc, those stall points: the instructions Gebhart 3.2's
 *            compiler marks as consumers of long-latency results
 *            (sched.suspend = marked).
 */
#include "timing/tins.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "base/base.h"

enum { R_BOT = 254 };        /* remaining-reads dataflow: no path seen yet */

typedef struct Fn {          /* one function's range of pcs */
	const Image *img;
	const TProg *tp;
	int32_t lo, hi;          /* pcs [lo, hi) */
	int32_t W;               /* words per set */
	int32_t ir_func;         /* its Module.funcs index */
} Fn;

/* successors of pc inside its function: up to 2 */
static int succs(const Fn *f, int32_t pc, int32_t s[2])
{
	const DIns *d = &f->img->code[pc];
	int n = 0;
	switch (d->op) {
	case OP_BRA:
		if (d->target >= f->lo && d->target < f->hi) s[n++] = d->target;
		if (d->guard >= 0 && pc + 1 < f->hi && (!n || s[0] != pc + 1)) s[n++] = pc + 1;
		return n;
	case OP_RET: case OP_EXIT: case OP_TRAP:
		if (d->guard < 0) return 0;
		break;
	default:
		break;
	}
	if (pc + 1 < f->hi) s[n++] = pc + 1;
	return n;
}

static void set_bit(uint64_t *v, int32_t r) { v[r >> 6] |= 1ull << (r & 63); }
static int has_bit(const uint64_t *v, int32_t r) { return (int)(v[r >> 6] >> (r & 63) & 1); }

/* does pc kill slot r (an unguarded write)? */
static int kills(const Fn *f, int32_t pc, int32_t r)
{
	if (f->img->code[pc].guard >= 0) return 0;
	const TIns *t = &f->tp->ins[pc];
	const int32_t *wr = f->tp->regs + t->regs + t->nrd;
	for (int i = 0; i < t->nwr_reg; i++)
		if (wr[i] == r) return 1;
	return 0;
}

/* in = use | (out & ~kill) for every pc, backward until stable */
static void dataflow(const Fn *f, uint64_t *in, uint64_t *out, const uint64_t *ext,
                     uint64_t *tmp)
{
	int32_t W = f->W;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t pc = f->hi - 1; pc >= f->lo; pc--) {
			uint64_t *o = out + (size_t)pc * W, *i = in + (size_t)pc * W;
			int32_t s[2];
			int ns = succs(f, pc, s);
			memcpy(o, ext + (size_t)pc * W, (size_t)W * sizeof *o);
			for (int k = 0; k < ns; k++)
				for (int32_t w = 0; w < W; w++) o[w] |= in[(size_t)s[k] * W + w];
			memcpy(tmp, o, (size_t)W * sizeof *tmp);
			const TIns *t = &f->tp->ins[pc];
			const int32_t *rg = f->tp->regs + t->regs;
			if (f->img->code[pc].guard < 0)
				for (int k = 0; k < t->nwr_reg; k++) tmp[rg[t->nrd + k] >> 6] &= ~(1ull << (rg[t->nrd + k] & 63));
			for (int k = 0; k < t->nrd_reg; k++) set_bit(tmp, rg[k]);
			if (memcmp(tmp, i, (size_t)W * sizeof *tmp)) {
				memcpy(i, tmp, (size_t)W * sizeof *tmp);
				changed = 1;
			}
		}
	}
}

/*
 * The divergent regions, without walking each one: nested regions make the
 * sum of their sizes quadratic (20,000 nested ifs: tens of seconds per
 * launch).  Every pc of a branch's region is post-dominated by its
 * reconvergence point, so the points of the regions holding a pc lie on one
 * chain of the post-dominator tree, and a region whose point is higher up
 * reaches from that pc all that a lower one reaches (live_div.c makes the
 * same argument for the IR).  So the branches are taken highest point
 * first (Cfg.pdom_depth of the IR block the point begins), one 64-slot word
 * of the sets at a time, and a walk stops at a pc that already has the
 * bits it carries: each pc takes each slot at most once per round.
 */
typedef struct Br {          /* a divergent branch of the function */
	int32_t pc, s[2], ns;    /* its successors */
	int32_t depth;           /* its reconvergence point's depth below the exit */
} Br;

typedef struct Walk { int32_t *pc; uint64_t *bits; size_t n, cap; } Walk;

/* the divergent branches of f, highest reconvergence point first (ties by pc) */
static int32_t branches(const Fn *f, Br *br)
{
	const Image *img = f->img;
	Cfg *c = cfg_build(&img->m->funcs[f->ir_func]);
	int32_t nbr = 0, maxd = 0;
	for (int32_t pc = f->lo; pc < f->hi; pc++) {
		const DIns *d = &img->code[pc];
		Br b = {.pc = pc};
		if (d->op != OP_BRA || d->guard < 0 || (b.ns = succs(f, pc, b.s)) < 2) continue;
		b.depth = c->pdom_depth[c->ipdom[c->block_of[d->ir]]];
		if (b.depth > maxd) maxd = b.depth;
		br[nbr++] = b;
	}
	cfg_free(c);
	int32_t *cnt = xcalloc((size_t)maxd + 2, sizeof(int32_t));
	Br *tmp = xmalloc(sizeof(Br) * ((size_t)nbr + 1));
	for (int32_t k = 0; k < nbr; k++) cnt[br[k].depth + 1]++;
	for (int32_t d = 0; d <= maxd; d++) cnt[d + 1] += cnt[d];
	for (int32_t k = 0; k < nbr; k++) tmp[cnt[br[k].depth]++] = br[k];
	memcpy(br, tmp, sizeof(Br) * (size_t)nbr);
	free(cnt), free(tmp);
	return nbr;
}

/* bits of word w that pc p has not seen yet join its ext and go on */
static int reach(const Fn *f, Walk *wk, int32_t p, uint64_t bits, int32_t w, uint64_t *ext,
                 uint64_t *seen)
{
	uint64_t nb = bits & ~seen[p - f->lo], *e = ext + (size_t)p * f->W + w;
	if (!nb) return 0;
	seen[p - f->lo] |= nb;
	int grew = (nb & ~*e) != 0;
	*e |= nb;
	if (wk->n == wk->cap) {
		wk->cap = wk->cap ? 2 * wk->cap : 256;
		wk->pc = xrealloc(wk->pc, sizeof(int32_t) * wk->cap);
		wk->bits = xrealloc(wk->bits, sizeof(uint64_t) * wk->cap);
	}
	wk->pc[wk->n] = p, wk->bits[wk->n++] = nb;
	return grew;
}

/* ext |= bits (word w) over the region of branch b; 1 if ext grew */
static int region(const Fn *f, const Br *b, uint64_t bits, int32_t w, uint64_t *ext,
                  uint64_t *seen, Walk *wk)
{
	int32_t R = f->img->code[b->pc].reconv, grew = 0;
	wk->n = 0;
	for (int k = 0; k < b->ns; k++)
		if (b->s[k] != R) grew |= reach(f, wk, b->s[k], bits, w, ext, seen);
	while (wk->n) {
		wk->n--;
		int32_t p = wk->pc[wk->n], t[2];
		uint64_t m = wk->bits[wk->n];
		int nt = succs(f, p, t);
		for (int k = 0; k < nt; k++)
			if (t[k] != R) grew |= reach(f, wk, t[k], m, w, ext, seen);
	}
	return grew;
}

/* widen liveness over divergent regions until stable (see the comment above) */
static void divergence(const Fn *f, uint64_t *in, uint64_t *out, uint64_t *ext, uint64_t *tmp)
{
	int32_t n = f->hi - f->lo, W = f->W;
	Br *br = xmalloc(sizeof(Br) * ((size_t)n + 1));
	int32_t nbr = branches(f, br);
	uint64_t *L = xmalloc(sizeof(uint64_t) * ((size_t)nbr * W + 1));
	uint64_t *seen = xmalloc(sizeof(uint64_t) * ((size_t)n + 1));
	Walk wk = {0};
	for (int changed = 1; changed;) {
		changed = 0;
		dataflow(f, in, out, ext, tmp);
		for (int32_t k = 0; k < nbr; k++) {
			uint64_t *l = L + (size_t)k * W;
			int32_t R = f->img->code[br[k].pc].reconv;
			memset(l, 0, (size_t)W * sizeof *l);
			for (int j = 0; j < br[k].ns; j++)
				for (int32_t w = 0; w < W; w++) l[w] |= in[(size_t)br[k].s[j] * W + w];
			if (R >= f->lo && R < f->hi)
				for (int32_t w = 0; w < W; w++) l[w] |= in[(size_t)R * W + w];
		}
		for (int32_t w = 0; w < W; w++) {
			memset(seen, 0, (size_t)n * sizeof *seen);
			for (int32_t k = 0; k < nbr; k++) {
				uint64_t bits = L[(size_t)k * W + w];
				if (bits) changed |= region(f, &br[k], bits, w, ext, seen, &wk);
			}
		}
	}
	free(br), free(L), free(seen), free(wk.pc), free(wk.bits);
}

static uint8_t meet(uint8_t a, uint8_t b)
{
	if (a == R_BOT) return b;
	if (b == R_BOT) return a;
	return a == b ? a : TUSES_UNKNOWN;
}

/* remaining reads of the value in each slot just before each pc: rem_in */
static void remaining(const Fn *f, int32_t nslot, uint8_t *rin, uint8_t *rout)
{
	memset(rin + (size_t)f->lo * nslot, R_BOT, (size_t)(f->hi - f->lo) * nslot);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t pc = f->hi - 1; pc >= f->lo; pc--) {
			int32_t s[2];
			int ns = succs(f, pc, s);
			uint8_t *o = rout + (size_t)pc * nslot, *i = rin + (size_t)pc * nslot;
			for (int32_t r = 0; r < nslot; r++) {
				uint8_t v = ns ? R_BOT : 0;
				for (int k = 0; k < ns; k++) v = meet(v, rin[(size_t)s[k] * nslot + r]);
				o[r] = v;
			}
			const TIns *t = &f->tp->ins[pc];
			const int32_t *rg = f->tp->regs + t->regs;
			for (int32_t r = 0; r < nslot; r++) {
				uint8_t v = o[r];
				if (kills(f, pc, r)) v = 0;
				int rd = 0;
				for (int k = 0; k < t->nrd_reg; k++) rd += rg[k] == r;
				if (rd) v = v == R_BOT ? (uint8_t)rd
				          : v >= R_BOT - rd ? TUSES_UNKNOWN : (uint8_t)(v + rd);
				if (v != i[r]) {
					/* a count that changes once known depends on the path
					   around a loop: unknown */
					if (i[r] != R_BOT && v != TUSES_UNKNOWN) v = TUSES_UNKNOWN;
					if (v != i[r]) {
						i[r] = v;
						changed = 1;
					}
				}
			}
		}
	}
}

/* pcs that may stall on a long-latency load (see TA_NRBL): lls[pc] = 1 */
static void stall_points(const Fn *f, uint8_t *lls, uint64_t *pin, uint64_t *tmp)
{
	int32_t W = f->W;
	memset(pin + (size_t)f->lo * W, 0, (size_t)(f->hi - f->lo) * W * sizeof *pin);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t pc = f->lo; pc < f->hi; pc++) {
			const TIns *t = &f->tp->ins[pc];
			const int32_t *rg = f->tp->regs + t->regs;
			memcpy(tmp, pin + (size_t)pc * W, (size_t)W * sizeof *tmp);
			for (int k = 0; k < t->nrd_reg; k++) tmp[rg[k] >> 6] &= ~(1ull << (rg[k] & 63));
			if (f->img->code[pc].guard < 0)
				for (int k = 0; k < t->nwr_reg; k++)
					tmp[rg[t->nrd + k] >> 6] &= ~(1ull << (rg[t->nrd + k] & 63));
			if (t->flags & TF_LONGLAT)
				for (int k = 0; k < t->nwr_reg; k++) set_bit(tmp, rg[t->nrd + k]);
			int32_t s[2];
			int ns = succs(f, pc, s);
			for (int j = 0; j < ns; j++) {
				uint64_t *i = pin + (size_t)s[j] * W;
				for (int32_t w = 0; w < W; w++)
					if (tmp[w] & ~i[w]) {
						i[w] |= tmp[w];
						changed = 1;
					}
			}
		}
	}
	for (int32_t pc = f->lo; pc < f->hi; pc++) {
		const TIns *t = &f->tp->ins[pc];
		const int32_t *rg = f->tp->regs + t->regs;
		lls[pc] = t->cpa >= CPA_WAIT;   /* waits for cp.async */
		for (int k = 0; k < t->nrd_reg; k++) lls[pc] |= (uint8_t)has_bit(pin + (size_t)pc * W, rg[k]);
	}
}

/* rbout[pc]: slots read after pc on some path before a stall point, with no
 * overwrite in between (backward may-dataflow; a stall point's successors
 * do not count: the warp is suspended before it) */
static void read_before_stall(const Fn *f, const uint8_t *lls, uint64_t *rbin, uint64_t *rbout,
                              uint64_t *tmp)
{
	int32_t W = f->W;
	memset(rbin + (size_t)f->lo * W, 0, (size_t)(f->hi - f->lo) * W * sizeof *rbin);
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t pc = f->hi - 1; pc >= f->lo; pc--) {
			uint64_t *o = rbout + (size_t)pc * W, *i = rbin + (size_t)pc * W;
			int32_t s[2];
			int ns = succs(f, pc, s);
			memset(o, 0, (size_t)W * sizeof *o);
			for (int k = 0; k < ns; k++)
				for (int32_t w = 0; w < W; w++) o[w] |= rbin[(size_t)s[k] * W + w];
			memset(tmp, 0, (size_t)W * sizeof *tmp);
			if (!lls[pc]) {
				const TIns *t = &f->tp->ins[pc];
				const int32_t *rg = f->tp->regs + t->regs;
				memcpy(tmp, o, (size_t)W * sizeof *tmp);
				if (f->img->code[pc].guard < 0)
					for (int k = 0; k < t->nwr_reg; k++)
						tmp[rg[t->nrd + k] >> 6] &= ~(1ull << (rg[t->nrd + k] & 63));
				for (int k = 0; k < t->nrd_reg; k++) set_bit(tmp, rg[k]);
			}
			if (memcmp(tmp, i, (size_t)W * sizeof *tmp)) {
				memcpy(i, tmp, (size_t)W * sizeof *tmp);
				changed = 1;
			}
		}
	}
}

void tprog_annotate(TProg *tp, const Image *img)
{
	size_t nregs = 0;
	for (int32_t pc = 0; pc < img->ncode; pc++) {
		const TIns *t = &tp->ins[pc];
		size_t e = t->regs + (size_t)t->nrd + t->nwr;
		if (e > nregs) nregs = e;
	}
	tp->ann = xcalloc(nregs + 1, 1);
	tp->uses = xcalloc(nregs + 1, 1);
	int32_t maxs = 1;
	for (int32_t i = 0; i < img->nfunc; i++)
		if (img->funcs[i].nslot > maxs) maxs = img->funcs[i].nslot;
	if (img->max_slots > maxs) maxs = img->max_slots;
	int32_t W = (maxs + 63) / 64;
	tp->lwords = W;
	size_t n = (size_t)img->ncode + 1;
	tp->live = xcalloc(n * (size_t)W, sizeof *tp->live);
	uint64_t *out = xcalloc(n * (size_t)W, sizeof *out);
	uint64_t *ext = xcalloc(n * (size_t)W, sizeof *ext);
	uint64_t *tmp = xcalloc((size_t)W, sizeof *tmp);
	uint64_t *rbin = xcalloc(n * (size_t)W, sizeof *rbin);
	uint64_t *rbout = xcalloc(n * (size_t)W, sizeof *rbout);
	uint8_t *lls = tp->llstall = xcalloc(n, 1);
	for (int32_t fi = 0; fi < img->nfunc; fi++) {
		const ImgFunc *F = &img->funcs[fi];
		if (F->end <= F->entry) continue;
		Fn f = {.img = img, .tp = tp, .lo = F->entry, .hi = F->end, .W = W,
		        .ir_func = F->ir_func};
		divergence(&f, tp->live, out, ext, tmp);
		int32_t ns = F->nslot > 0 ? F->nslot : 1;
		size_t cells = (size_t)img->ncode * (size_t)ns;
		uint8_t *rin = xmalloc(cells), *rout = xmalloc(cells);
		remaining(&f, ns, rin, rout);
		stall_points(&f, lls, rbin, tmp);
		read_before_stall(&f, lls, rbin, rbout, tmp);
		for (int32_t pc = f.lo; pc < f.hi; pc++) {
			const TIns *t = &tp->ins[pc];
			const int32_t *rg = tp->regs + t->regs;
			const uint64_t *o = out + (size_t)pc * W;
			const uint64_t *rb = rbout + (size_t)pc * W;
			for (int k = 0; k < t->nrd_reg; k++) {
				if (rg[k] >= ns || !has_bit(o, rg[k]) || kills(&f, pc, rg[k]))
					tp->ann[t->regs + k] |= TA_LAST;
				if (rg[k] >= ns || !has_bit(rb, rg[k]) || kills(&f, pc, rg[k]))
					tp->ann[t->regs + k] |= TA_NRBL;
			}
			for (int k = 0; k < t->nwr_reg; k++) {
				int32_t r = rg[t->nrd + k];
				size_t at = t->regs + (size_t)t->nrd + k;
				if (r >= ns || !has_bit(rb, r)) tp->ann[at] |= TA_NRBL;
				if (r >= ns || !has_bit(o, r)) {
					tp->ann[at] |= TA_DEAD;
					continue;
				}
				uint8_t u = rout[(size_t)pc * ns + r];
				tp->uses[at] = u == R_BOT ? 0 : u;
			}
		}
		free(rin);
		free(rout);
	}
	free(out);
	free(ext);
	free(tmp);
	free(rbin);
	free(rbout);
}
