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
#include "timing/rf/rf.h"

enum { POL_FIFO, POL_LRU };

typedef struct Ent {
	int32_t reg;             /* register held, -1 = free */
	uint8_t dirty;           /* newer than the MRF's copy */
	uint8_t dead;            /* compiler: no read follows (TA_LAST read, TA_DEAD write) */
	uint8_t nrbl;            /* compiler: not read before the next long-latency stall */
	uint64_t stamp;          /* FIFO: allocation order; LRU: last access */
} Ent;

typedef struct Port {        /* one RFC bank's ports in one cycle */
	int64_t cyc;
	int32_t rd, wr;
} Port;

typedef struct Rfc {
	Mrf mrf;                 /* the main register file */
	int64_t lat;             /* rfc.latency */
	int32_t E;               /* entries per warp */
	int32_t nwarps;
	int lru, liveness, alloc_src, byp_ll, byp_nr, ev_nr, tag;
	int32_t rports, wports, nbanks;
	Ent *e;                  /* nwarps * E */
	uint8_t *active;
	Port *port;              /* per RFC bank */
	uint64_t stamp;
	const TProg *tp;
	TStats *st;
} Rfc;

static void *init(const RfSm *sm)
{
	const Config *c = sm->cfg;
	Rfc *m = xcalloc(1, sizeof *m);
	mrf_init(&m->mrf, c, sm->st);
	m->lat = c->rfc_latency;
	m->E = (int32_t)c->rfc_entries;
	m->nwarps = sm->nwarps;
	m->lru = c->rfc_policy == POL_LRU;
	m->liveness = c->rfc_liveness;
	m->alloc_src = c->rfc_alloc_sources;
	m->byp_ll = c->rfc_bypass_longlat;
	m->byp_nr = c->rfc_bypass_noread;
	m->ev_nr = c->rfc_evict_noread;
	m->tag = c->rfc_tag_stage;
	m->rports = (int32_t)c->rfc_read_ports;
	m->wports = (int32_t)c->rfc_write_ports;
	m->nbanks = (int32_t)c->rfc_banks;
	m->e = xmalloc((size_t)(m->nwarps * m->E + 1) * sizeof *m->e);
	for (int32_t i = 0; i < m->nwarps * m->E; i++) m->e[i] = (Ent){.reg = -1};
	m->active = xcalloc((size_t)m->nwarps + 1, 1);
	m->port = xmalloc((size_t)m->nbanks * sizeof *m->port);
	for (int32_t i = 0; i < m->nbanks; i++) m->port[i] = (Port){.cyc = -1};
	m->tp = sm->prog;
	m->st = sm->st;
	return m;
}

static void fini(void *p)
{
	Rfc *m = p;
	mrf_fini(&m->mrf);
	free(m->e);
	free(m->active);
	free(m->port);
	free(m);
}

static Port *port_of(Rfc *m, int64_t now, int warp)
{
	Port *p = &m->port[warp % m->nbanks];
	if (p->cyc != now) *p = (Port){.cyc = now};
	return p;
}

static Ent *find(Rfc *m, int warp, int32_t reg)
{
	Ent *e = m->e + (size_t)warp * m->E;
	for (int32_t i = 0; i < m->E; i++)
		if (e[i].reg == reg) return &e[i];
	return NULL;
}

/* the entry a new value goes into: a free one, else the policy's victim */
static Ent *victim(Rfc *m, int warp)
{
	Ent *e = m->e + (size_t)warp * m->E, *v = NULL, *vn = NULL;
	for (int32_t i = 0; i < m->E; i++) {
		if (e[i].reg < 0) return &e[i];
		if (!v || e[i].stamp < v->stamp) v = &e[i];
		if (e[i].nrbl && (!vn || e[i].stamp < vn->stamp)) vn = &e[i];
	}
	return m->ev_nr && vn ? vn : v;
}

static int is_dead(const Rfc *m, const Ent *e) { return m->liveness && e->dead; }

/* drop entry e; a dirty live value is written back (bank port if free) */
static void evict_now(Rfc *m, int64_t now, int warp, Ent *e)
{
	if (e->reg >= 0 && e->dirty) {
		if (is_dead(m, e)) {
			m->st->rfc_dead_writebacks_avoided++;
		} else {
			(void)banks_take(&m->mrf.b, now, warp, e->reg);   /* a port if free */
			m->st->rfc_writebacks++;
			m->st->mrf_writes++;
		}
	}
	e->reg = -1;
}

static void fill(Ent *e, Rfc *m, int32_t reg, int dirty, uint8_t ann)
{
	*e = (Ent){.reg = reg, .dirty = (uint8_t)dirty,
	           .dead = (uint8_t)((ann & (TA_LAST | TA_DEAD)) != 0),
	           .nrbl = (uint8_t)((ann & TA_NRBL) != 0), .stamp = ++m->stamp};
	m->st->rfc_writes++;
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Rfc *m = p;
	const TIns *ti = &m->tp->ins[pc];
	uint8_t ann = m->tp->ann[ti->regs + (uint32_t)k];
	Ent *e = m->active[warp] ? find(m, warp, reg) : NULL;
	if (e) {
		Port *po = port_of(m, now, warp);
		if (po->rd >= m->rports) {
			m->st->bank_conflicts++;
			return 0;
		}
		po->rd++;
		m->st->rfc_reads++;
		m->st->rfc_hits++;
		if (ann & TA_LAST) e->dead = 1;
		e->nrbl = (uint8_t)((ann & TA_NRBL) != 0);
		if (m->lru) e->stamp = ++m->stamp;
		return now + m->lat;
	}
	int64_t t = mrf_read(&m->mrf, now, warp, reg);
	if (!t) return 0;
	m->st->rfc_reads++;
	if (m->alloc_src && m->active[warp]) {
		Ent *v = victim(m, warp);
		evict_now(m, now, warp, v);
		fill(v, m, reg, 0, ann);
	}
	return t;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Rfc *m = p;
	const TIns *ti = &m->tp->ins[pc];
	uint8_t ann = m->tp->ann[ti->regs + (uint32_t)k];
	Ent *e = m->active[warp] ? find(m, warp, reg) : NULL;
	int direct = !m->active[warp] || (m->byp_ll && ti->flags & TF_LONGLAT) ||
	             (m->byp_nr && ann & TA_NRBL && !(ann & TA_DEAD));
	if (direct) {
		if (!mrf_write(&m->mrf, now, warp, reg)) return 0;
		if (e) e->reg = -1;                     /* the cached copy is stale */
		return 1;
	}
	Port *po = port_of(m, now, warp);
	if (po->wr >= m->wports) {
		m->st->bank_conflicts++;
		return 0;
	}
	if (!e) {
		e = victim(m, warp);
		if (e->reg >= 0 && e->dirty && !is_dead(m, e)) {
			if (!mrf_write(&m->mrf, now, warp, e->reg)) return 0;   /* the victim's write-back */
			m->st->rfc_writebacks++;
		} else if (e->reg >= 0 && e->dirty) {
			m->st->rfc_dead_writebacks_avoided++;
		}
	}
	po->wr++;
	fill(e, m, reg, 1, ann);
	return 1;
}

static void activate(void *p, int64_t now, int warp) { ((Rfc *)p)->active[warp] = 1; }

static void deactivate(void *p, int64_t now, int warp)
{
	Rfc *m = p;
	Ent *e = m->e + (size_t)warp * m->E;
	for (int32_t i = 0; i < m->E; i++) evict_now(m, now, warp, &e[i]);
	m->active[warp] = 0;
}

static int branch_extra(void *p) { return ((Rfc *)p)->tag; }

const RfModel rf_model_rfc = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
	.activate = activate,
	.deactivate = deactivate,
	.branch_extra = branch_extra,
};
