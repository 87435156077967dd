/*
 * rf_usecache.c -- use-based register caching (Butts and Sohi, 2003): a
 * register cache whose insertion and replacement are decided by how many
 * uses a value has left, with decoupled (round-robin) set indexing.
 *
 * Butts and Sohi's cache sits in a wide out-of-order CPU pipeline; rfsim's
 * is in a GPU warp pipeline.  The ideas map as follows (the choices are
 * ours; the slides say nothing about GPUs):
 *
 *   register file     the banked main register file (MRF) of rf_baseline.c;
 *                     every result is written through to it, as in their
 *                     pipeline ("all values written to register file").
 *   register cache    one per warp slot, usecache.entries entries (each a
 *                     warp-wide 32-bit register), usecache.assoc ways per
 *                     set; if entries is not a multiple of the ways the sets
 *                     differ by one way.  Only active warps hold entries (as
 *                     the RFC of rf_rfc.c); a deactivated warp's entries are
 *                     simply dropped -- the MRF is up to date.
 *   bypass network    a GPU has no per-instruction bypass, but the warp
 *                     consumer that issues in the cycle its producer writes
 *                     back reads the value one cycle later, straight from
 *                     the writeback stage: a read within usecache.bypass
 *                     cycles of the write is served by that path (the result
 *                     latch) and touches neither cache nor MRF.  The
 *                     insertion decision is made when that window closes:
 *                     then the number of uses satisfied by bypass is known,
 *                     as it is at writeback in their pipeline.
 *   degree of use     the compiler's count of the reads a value gets
 *                     (TProg.uses, tlive.c), exact per thread instead of
 *                     their predictor; a path-dependent count (TUSES_UNKNOWN)
 *                     takes usecache.unknown ("unknown default of 1 works
 *                     well"), a value never read (TA_DEAD) has degree 0.
 *                     Counting uses down is exact for a known degree; for an
 *                     unknown one (a value read around a loop) the compiler
 *                     still knows which read is the last (TA_LAST): such a
 *                     value keeps usecache.unknown remaining uses until that
 *                     read, then has 0 -- the compiler's remaining-use
 *                     knowledge standing in for their predictor's training.
 *                     A read marked last also leaves 0 on a known count and
 *                     on a fill.
 *   policies          usecache.policy names the pairs the slides compare
 *                     (slide 17 and the incremental breakdown of slide 20):
 *                     lru = every value inserted, LRU victim (the
 *                     conventional register cache); nonbypass = only values
 *                     no reader got by bypass (Cruz et al.), LRU victim; use
 *                     = inserted only if the uses satisfied by bypass are
 *                     fewer than the degree of use, victim the entry with the
 *                     fewest remaining uses (least recently used first on a
 *                     tie); useinsert = use's insertion with LRU victims.  An
 *                     entry stores its remaining uses, decremented by each
 *                     hit.  A free way is always used first.
 *   miss and fill     a read that misses reads the MRF (its bank, its
 *                     latency) and fills the cache with usecache.fill
 *                     remaining uses ("fill default of 0 performs best; still
 *                     need to fill").  A miss in the CPU replays the
 *                     instruction; here the operand collector simply waits
 *                     for the MRF.
 *   indexing          usecache.index: modulo (set = register number mod sets)
 *                     or rr (decoupled: each value gets the next set of a
 *                     per-warp round-robin counter when it is written -- the
 *                     GPU's allocation point, a warp having no renaming -- and
 *                     its readers find it there; the set per register is the
 *                     "rename map" field of slide 12).
 *
 * Counters: rfc_reads (reads that looked in the cache: not those served by
 * the bypass; a warp that was just deactivated, with operands still being
 * collected, looks and misses), rfc_hits, rfc_writes (insertions and fills); mrf_reads are
 * the misses, mrf_writes every result.  Miss rate = 1 - rfc_hits/rfc_reads.
 * The cache is assumed to have enough ports (their study is of miss rates);
 * a hit delivers after usecache.latency cycles.  The entries are rcache.h's
 * array; the set a value goes to is chosen here.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/rftech.h"
#include "timing/rf/mrf.h"
#include "timing/rf/rcache.h"
#include "timing/rf/rf.h"

enum { INS_ALL, INS_NONBYPASS, INS_USE };
enum { IDX_MODULO, IDX_RR };
enum { LATCH = 8 };          /* values a warp wrote in the bypass window */
enum { UNK = 1 };            /* RcEnt.mark: degree unknown, uses stay until the last read */

typedef struct Latch {       /* a value still on the bypass path */
	int32_t reg;
	int32_t deg;             /* degree of use */
	int32_t unk;             /* ... not known: usecache.unknown */
	int32_t byp;             /* uses satisfied by bypass so far */
	int64_t t;               /* written in this cycle */
} Latch;

typedef struct Use {
	Mrf mrf;                 /* the main register file */
	const TProg *tp;         /* the kernel's instructions and their annotations */
	TStats *st;              /* the SM's counters */
	Rcache rc;               /* the entries (RcEnt.uses: remaining uses) */
	int64_t lat, window;
	int32_t nslots;          /* registers per warp (set map) */
	int ins, idx, unknown, fill;
	Latch *l;                /* nwarps * LATCH */
	uint8_t *nl;             /* per warp: latch entries in use */
	int32_t *set;            /* nwarps * nslots: the set a register's value went to */
	int32_t *rr;             /* per warp: next set (round robin) */
} Use;

static void *init(const RfSm *sm)
{
	const Config *c = sm->cfg;
	static const int ins[] = {INS_ALL, INS_NONBYPASS, INS_USE, INS_USE};
	static const RcPolicy rep[] = {RC_LRU, RC_LRU, RC_USE, RC_LRU};
	Use *m = xcalloc(1, sizeof *m);
	rcache_init(&m->rc, sm->nwarps, (int32_t)c->usecache_entries, (int32_t)c->usecache_assoc,
	            rep[c->usecache_policy]);
	mrf_init(&m->mrf, c, sm->st);
	m->tp = sm->prog;
	m->st = sm->st;
	m->lat = c->usecache_latency;
	m->window = c->usecache_bypass;
	m->nslots = sm->prog->nslots + 1;
	m->ins = ins[c->usecache_policy];
	m->idx = c->usecache_index;
	m->unknown = (int)c->usecache_unknown;
	m->fill = (int)c->usecache_fill;
	size_t nw = (size_t)sm->nwarps;
	m->l = xcalloc(nw * LATCH + 1, sizeof *m->l);
	m->nl = xcalloc(nw + 1, 1);
	m->set = xmalloc((nw * (size_t)m->nslots + 1) * sizeof *m->set);
	for (size_t i = 0; i < nw * (size_t)m->nslots; i++) m->set[i] = -1;
	m->rr = xcalloc(nw + 1, sizeof *m->rr);
	return m;
}

static void fini(void *p)
{
	Use *m = p;
	free(m->l);
	free(m->nl);
	free(m->set);
	free(m->rr);
	rcache_fini(&m->rc);
	mrf_fini(&m->mrf);
	free(m);
}

/* the set holding reg's current value */
static int32_t set_of(const Use *m, int warp, int32_t reg)
{
	if (m->idx == IDX_RR && reg < m->nslots) {
		int32_t s = m->set[(size_t)warp * m->nslots + reg];
		if (s >= 0) return s;
	}
	return reg % m->rc.nsets;
}

static RcEnt *lookup(Use *m, int warp, int32_t reg)
{
	return rcache_find(&m->rc, warp, set_of(m, warp, reg), reg);
}

static void insert(Use *m, int warp, int32_t reg, int32_t rem, int unk)
{
	RcEnt *e = rcache_victim(&m->rc, warp, set_of(m, warp, reg), 0);
	rcache_put(&m->rc, e, reg)->uses = rem;
	e->mark = unk ? UNK : 0;
	m->st->rfc_writes++;
}

/* the bypass window of latch entry i closed: insert it or not */
static void settle_one(Use *m, int warp, int i)
{
	Latch *L = m->l + (size_t)warp * LATCH, x = L[i];
	L[i] = L[--m->nl[warp]];
	int in = m->ins == INS_ALL || (m->ins == INS_NONBYPASS && x.byp == 0) ||
	         (m->ins == INS_USE && x.byp < x.deg);
	if (in && rcache_held(&m->rc, warp))
		insert(m, warp, x.reg, x.unk ? x.deg : x.deg > x.byp ? x.deg - x.byp : 0, x.unk);
}

static void settle(Use *m, int warp, int64_t now)
{
	Latch *L = m->l + (size_t)warp * LATCH;
	for (int i = m->nl[warp] - 1; i >= 0; i--)
		if (now > L[i].t + m->window) settle_one(m, warp, i);
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Use *m = p;
	settle(m, warp, now);
	Latch *L = m->l + (size_t)warp * LATCH;
	int last = m->tp->ann[m->tp->ins[pc].regs + (uint32_t)k] & TA_LAST;
	for (int i = 0; i < m->nl[warp]; i++)
		if (L[i].reg == reg) {                  /* on the bypass path */
			L[i].byp++;
			if (last) L[i].deg = L[i].byp, L[i].unk = 0;
			return now + m->lat;
		}
	RcEnt *e = rcache_held(&m->rc, warp) ? lookup(m, warp, reg) : NULL;
	if (e) {
		m->st->rfc_reads++;
		m->st->rfc_hits++;
		if (last) e->uses = 0;
		else if (e->uses > 0 && !(e->mark & UNK)) e->uses--;
		rcache_touch(&m->rc, e);
		return now + m->lat;
	}
	int64_t t = mrf_read(&m->mrf, now, warp, reg);
	if (!t) return 0;
	m->st->rfc_reads++;
	if (rcache_held(&m->rc, warp)) insert(m, warp, reg, last ? 0 : m->fill, 0);
	return t;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Use *m = p;
	if (!mrf_write(&m->mrf, now, warp, reg)) return 0;
	settle(m, warp, now);
	Latch *L = m->l + (size_t)warp * LATCH;
	for (int i = 0; i < m->nl[warp]; i++)     /* an older value of reg: overwritten */
		if (L[i].reg == reg) {
			L[i] = L[--m->nl[warp]];
			break;
		}
	RcEnt *e = lookup(m, warp, reg);
	if (e) rcache_drop(e);                    /* stale */
	if (reg < m->nslots)
		m->set[(size_t)warp * m->nslots + reg] =
			m->idx == IDX_RR ? m->rr[warp]++ % m->rc.nsets : reg % m->rc.nsets;
	if (m->rr[warp] >= m->rc.nsets) m->rr[warp] = 0;
	if (!rcache_held(&m->rc, warp)) return 1;
	const TIns *ti = &m->tp->ins[pc];
	uint32_t at = ti->regs + (uint32_t)k;
	int unk = !(m->tp->ann[at] & TA_DEAD) && m->tp->uses[at] == TUSES_UNKNOWN;
	int32_t deg = m->tp->ann[at] & TA_DEAD ? 0 : unk ? m->unknown : m->tp->uses[at];
	if (m->nl[warp] == LATCH) settle_one(m, warp, 0);
	L[m->nl[warp]++] = (Latch){.reg = reg, .deg = deg, .unk = unk, .t = now};
	return 1;
}

/* the warp joins the active set: it holds entries from now on */
static void hold(void *p, int64_t now, int warp) { rcache_hold(&((Use *)p)->rc, warp); }

/* the warp leaves it: the MRF is up to date (every result is written
   through), so its entries and bypass latch are simply dropped */
static void drop(void *p, int64_t now, int warp)
{
	Use *m = p;
	m->nl[warp] = 0;
	rcache_flush(&m->rc, now, warp, NULL, NULL);
}

const RfModel rf_model_usecache = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
	.activate = hold,
	.deactivate = drop,
};
