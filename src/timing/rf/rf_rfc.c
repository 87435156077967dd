/*
 * rf_rfc.c -- the register file cache (RFC) of Gebhart et al., ISCA'11
 * (3.1 and 3.3): a small per-thread cache of recently produced values in
 * front of the banked main register file (MRF, as in rf_baseline.c), so
 * that most operand traffic never reaches the MRF.
 *
 * Organisation.  Each warp slot has rfc.entries entries (entries per
 * thread; an entry holds one warp-wide 32-bit register, the per-lane RFC
 * banks of Figure 5(b) accessed together).  Entries are held only by
 * active warps: when the two-level scheduler deactivates a warp (3.3), its
 * dirty live entries are written back to the MRF and all are freed;
 * single-level schedulers activate a warp at launch and deactivate it at
 * exit, so then every resident warp has its entries (the RFC of 3.1).
 *
 * Allocation (3.1): every result is written into the RFC, not the MRF.
 * rfc.alloc_sources also allocates (clean) entries for source operands
 * read from the MRF.  rfc.bypass_longlat (3.3) sends the results of
 * long-latency loads (TF_LONGLAT: global, local, generic) straight to the
 * MRF; rfc.bypass_noread (5.3) sends there the values the compiler says
 * are not read before the warp's next long-latency stall (TA_NRBL,
 * tlive.c).  A result always replaces an older copy of its register in the
 * RFC; one that goes to the MRF drops that copy (it is stale).
 *
 * Replacement: rfc.policy fifo (the paper's baseline: the oldest
 * allocation is evicted) or lru (the least recently read or written).
 * rfc.evict_noread (5.3) first evicts, in that order, the entries whose
 * value is not read again before the next long-latency stall (the TA_NRBL
 * bit of the entry's latest access).  A free entry is always used first.
 * The entries are rcache.h's array, one fully associative set per warp.
 *
 * Eviction (3.1): an evicted dirty value is written back to the MRF,
 * unless rfc.liveness is on and the compiler's last-use bit (TA_LAST) was
 * on the read that last touched it, or the value was never to be read
 * (TA_DEAD): then it is dead and dropped (rfc_dead_writebacks_avoided).
 * Liveness only elides write-backs; dead entries keep their place in the
 * replacement order, so reads do not change with rfc.liveness (as in
 * Figure 6(c)).  A warp that exits is deactivated like any other: with
 * liveness its dead values are dropped, without it every dirty value is
 * written back -- the hardware-only RFC knows nothing else.
 *
 * Timing.  A read hit takes an RFC read port (rfc.read_ports per RFC bank
 * per cycle, rfc.banks banks, warp w in bank w mod rfc.banks; the paper's
 * RFC is 3R/1W) and delivers after rfc.latency cycles; a miss reads the
 * MRF through its banks as rf_baseline does (rf.mrf_latency, rf.banks,
 * rf.tech).  The paper reads RFC operands "during the last stage
 * allocated to MRF access", so rfc.latency defaults to 1 = the gebhart
 * config's rf.mrf_latency.  A result takes an RFC write port
 * (rfc.write_ports); the write-back of the victim it evicts takes an MRF
 * bank port in the same cycle, and if either is taken the write is
 * retried next cycle, like a baseline write that loses its bank.
 * Source allocation writes through the extra RFC write ports the paper
 * says it needs (not limited here).  Write-backs of a deactivated warp's
 * entries and of victims of source allocation take a port of their MRF
 * bank if one is free that cycle but do not wait for one (the warp waits hundreds of cycles for memory; the
 * write-back buffer is not modelled).  The tag-check stage (rfc.tag_stage,
 * Figure 3(b)) does not change back-to-back latencies -- ALU latencies in
 * the config are issue to dependent issue -- but adds a cycle to the
 * branch resolution path: branch_extra.
 *
 * Counters: rfc_reads (every operand read: each looks in the RFC),
 * rfc_hits, rfc_writes (values allocated: results and source fills),
 * rfc_writebacks, rfc_dead_writebacks_avoided; mrf_reads and mrf_writes
 * only for accesses that reach the MRF.  The share of reads and writes
 * avoided (Figures 6 and 11) is 1 - mrf_reads/reg_reads and
 * 1 - mrf_writes/reg_writes.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/rftech.h"
#include "timing/rf/mrf.h"
#include "timing/rf/rcache.h"
#include "timing/rf/rf.h"

enum { POL_FIFO, POL_LRU };
enum { DEAD = 1, NRBL = 2 }; /* RcEnt.mark: no read follows (TA_LAST read, TA_DEAD write);
                                not read before the next long-latency stall */

typedef struct Port {        /* one RFC bank's ports in one cycle */
	int64_t cyc;
	int32_t rd, wr;
} Port;

typedef struct Rfc {
	Mrf mrf;                 /* the main register file */
	const TProg *tp;         /* the kernel's instructions and their annotations */
	TStats *st;              /* the SM's counters */
	Rcache rc;               /* the entries: one set of rfc.entries per warp */
	int64_t lat;             /* rfc.latency */
	int liveness, alloc_src, byp_ll, byp_nr, tag;
	uint8_t prefer;          /* victims first among these marks (rfc.evict_noread) */
	int32_t rports, wports, nbanks;
	Port *port;              /* per RFC bank */
} Rfc;

static void *init(const RfSm *sm)
{
	const Config *c = sm->cfg;
	int32_t E = (int32_t)c->rfc_entries;
	Rfc *m = xcalloc(1, sizeof *m);
	rcache_init(&m->rc, sm->nwarps, E, E, c->rfc_policy == POL_LRU ? RC_LRU : RC_FIFO);
	mrf_init(&m->mrf, c, sm->st);
	m->tp = sm->prog;
	m->st = sm->st;
	m->lat = c->rfc_latency;
	m->liveness = c->rfc_liveness;
	m->alloc_src = c->rfc_alloc_sources;
	m->byp_ll = c->rfc_bypass_longlat;
	m->byp_nr = c->rfc_bypass_noread;
	m->prefer = c->rfc_evict_noread ? NRBL : 0;
	m->tag = c->rfc_tag_stage;
	m->rports = (int32_t)c->rfc_read_ports;
	m->wports = (int32_t)c->rfc_write_ports;
	m->nbanks = (int32_t)c->rfc_banks;
	m->port = xmalloc((size_t)m->nbanks * sizeof *m->port);
	for (int32_t i = 0; i < m->nbanks; i++) m->port[i] = (Port){.cyc = -1};
	return m;
}

static void fini(void *p)
{
	Rfc *m = p;
	free(m->port);
	rcache_fini(&m->rc);
	mrf_fini(&m->mrf);
	free(m);
}

static Port *port_of(Rfc *m, int64_t now, int warp)
{
	Port *p = &m->port[warp % m->nbanks];
	if (p->cyc != now) *p = (Port){.cyc = now};
	return p;
}

static inline RcEnt *find(Rfc *m, int warp, int32_t reg)
{
	return rcache_held(&m->rc, warp) ? rcache_find_any(&m->rc, warp, reg) : NULL;
}

static int is_dead(const Rfc *m, const RcEnt *e) { return m->liveness && e->mark & DEAD; }

/* a dirty value leaves the RFC: written back (bank port if free) unless dead */
static void write_back(void *p, int64_t now, int warp, RcEnt *e)
{
	Rfc *m = p;
	if (is_dead(m, e)) {
		m->st->rfc_dead_writebacks_avoided++;
		return;
	}
	(void)banks_take(&m->mrf.b, now, warp, e->reg);   /* a port if free */
	m->st->rfc_writebacks++;
	m->st->mrf_writes++;
}

static void fill(Rfc *m, RcEnt *e, int32_t reg, int dirty, uint8_t ann)
{
	rcache_put(&m->rc, e, reg)->dirty = (uint8_t)dirty;
	e->mark = (uint8_t)((ann & (TA_LAST | TA_DEAD) ? DEAD : 0) | (ann & TA_NRBL ? NRBL : 0));
	m->st->rfc_writes++;
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Rfc *m = p;
	const TIns *ti = &m->tp->ins[pc];
	uint8_t ann = m->tp->ann[ti->regs + (uint32_t)k];
	RcEnt *e = find(m, warp, reg);
	if (e) {
		Port *po = port_of(m, now, warp);
		if (po->rd >= m->rports) {
			m->st->bank_conflicts++;
			return 0;
		}
		po->rd++;
		m->st->rfc_reads++;
		m->st->rfc_hits++;
		e->mark = (uint8_t)((e->mark & DEAD) | (ann & TA_LAST ? DEAD : 0) |
		                    (ann & TA_NRBL ? NRBL : 0));
		rcache_touch(&m->rc, e);
		return now + m->lat;
	}
	int64_t t = mrf_read(&m->mrf, now, warp, reg);
	if (!t) return 0;
	m->st->rfc_reads++;
	if (m->alloc_src && rcache_held(&m->rc, warp)) {
		RcEnt *v = rcache_victim(&m->rc, warp, 0, m->prefer);
		if (v->reg >= 0 && v->dirty) write_back(m, now, warp, v);
		fill(m, v, reg, 0, ann);
	}
	return t;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Rfc *m = p;
	const TIns *ti = &m->tp->ins[pc];
	uint8_t ann = m->tp->ann[ti->regs + (uint32_t)k];
	RcEnt *e = find(m, warp, reg);
	int direct = !rcache_held(&m->rc, warp) || (m->byp_ll && ti->flags & TF_LONGLAT) ||
	             (m->byp_nr && ann & TA_NRBL && !(ann & TA_DEAD));
	if (direct) {
		if (!mrf_write(&m->mrf, now, warp, reg)) return 0;
		if (e) rcache_drop(e);                  /* the cached copy is stale */
		return 1;
	}
	Port *po = port_of(m, now, warp);
	if (po->wr >= m->wports) {
		m->st->bank_conflicts++;
		return 0;
	}
	if (!e) {
		e = rcache_victim(&m->rc, warp, 0, m->prefer);
		if (e->reg >= 0 && e->dirty && !is_dead(m, e)) {
			if (!mrf_write(&m->mrf, now, warp, e->reg)) return 0;   /* the victim's write-back */
			m->st->rfc_writebacks++;
		} else if (e->reg >= 0 && e->dirty) {
			m->st->rfc_dead_writebacks_avoided++;
		}
	}
	po->wr++;
	fill(m, e, reg, 1, ann);
	return 1;
}

/* the warp joins the active set: it holds entries from now on */
static void hold(void *p, int64_t now, int warp) { rcache_hold(&((Rfc *)p)->rc, warp); }

/* the warp leaves it (3.3): its dirty live values are written back, all entries freed */
static void flush(void *p, int64_t now, int warp)
{
	Rfc *m = p;
	rcache_flush(&m->rc, now, warp, write_back, m);
}

static int branch_extra(void *p) { return ((Rfc *)p)->tag; }

const RfModel rf_model_rfc = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
	.activate = hold,
	.deactivate = flush,
	.branch_extra = branch_extra,
};
