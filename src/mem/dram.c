/*
 * dram.c -- DRAM channels behind the L2 slices.
 *
 * Address map.  The slices of a channel are consecutive (l2.c), so a
 * channel owns runs of l2.banks / dram.channels lines; within it,
 * dram.interleave_bytes of consecutive data sit in one bank, then the next
 * bank, and a bank's row holds dram.row_bytes: a streaming warp spreads over
 * the banks and comes back to open rows.  Bank b is in group b mod
 * dram.bank_groups, so neighbouring data alternate groups (GPGPU-Sim's
 * "lower bits for bank groups").
 *
 * frfcfs.  Each channel has a scheduler queue of dram.queue requests (a
 * slice whose channel is full holds its misses: l2.c) that reach it
 * dram.ctrl_lat DRAM cycles after the slice sent them (controller and PHY).
 * Every DRAM cycle the channel issues at most one command, first-ready
 * first-come-first-served (Rixner et al., ISCA 2000; GPGPU-Sim's and LTRF
 * Table 3's scheduler): the oldest column command (read or write) to an
 * open row whose timing allows it, else the oldest activate or precharge
 * that is allowed -- a bank is precharged only when no request waits for
 * its open row.  A request moves bytes / (dram.bus_bytes * dram.burst)
 * bursts, one column command each; each burst holds the data bus for
 * dram.burst / dram.data_rate cycles.  The command timing (every dram.t*
 * key, in DRAM cycles; GDDR5 and HBM datasheets give them so):
 *
 *   one bank      ACT -> RD/WR tRCD, ACT -> PRE tRAS, ACT -> ACT tRC,
 *                 PRE -> ACT tRP, RD -> PRE tRTP, write data -> PRE tWR
 *   the channel   ACT -> ACT tRRD, at most four ACTs in tFAW,
 *                 RD/WR -> RD/WR tCCD, tCCDL within a bank group,
 *                 write data -> RD tWTR, RD -> WR tCL + burst + 2 - tWL
 *                 (GPGPU-Sim's read-to-write turnaround), data bus one
 *                 burst at a time, tCL (reads) or tWL (writes) after it
 *   refresh       every tREFI every bank is closed for tRFC
 *
 * A read is answered (l2_fill) when its last burst is off the bus.  Writes
 * (dirty L2 victims) take the same bank and bus time; nobody waits for
 * them.
 *
 * fixed.  Gebhart et al.'s memory: every access takes dram.lat core cycles,
 * and a channel moves dram.bus_bytes * dram.data_rate bytes per DRAM cycle
 * (the first free slot of its bus from the access's arrival).  No queue:
 * the answer is known when the request arrives.
 */
#include "mem/mem.h"

#include <stdlib.h>

#include "base/base.h"

typedef struct DReq {
	uint64_t seq;            /* age */
	int64_t t;               /* DRAM cycle it reaches the scheduler */
	int64_t row;
	int64_t end;             /* its last data so far, DRAM cycle */
	int32_t bank, slice, mshr;   /* mshr < 0: a write */
	int32_t next;            /* its bank's list (age order), or the free list */
	uint16_t bursts;         /* column commands still to issue */
	uint8_t acted;           /* an ACT was issued for it */
} DReq;

typedef struct DBank {
	int64_t row;             /* open row, -1 = closed */
	int64_t act_ok, col_ok, pre_ok;   /* earliest ACT, RD/WR, PRE */
	int32_t head, tail;      /* its requests, oldest first */
} DBank;

typedef struct DChan {
	DReq *r; int32_t cap, freer, n;   /* request pool, free list, requests held */
	DBank *bank;
	int64_t act_ok;          /* tRRD */
	int64_t faw[4];          /* the last four ACTs, oldest at fi */
	int32_t fi;
	int64_t last_col;        /* last column command, its group */
	int32_t last_grp;
	int64_t rd_ok, wr_ok;    /* turnarounds */
	int64_t bus;             /* data bus free from */
	int64_t ref_at, ref_end; /* next refresh; the current one's end */
	int64_t busy;            /* fixed model: bus booked until, ticks */
} DChan;

struct Dram {
	MemSys *ms;
	int fixed;
	int32_t nch, nbank, ngrp, spc;
	uint32_t chunk_lines;    /* lines of one bank before the next (>= 1) */
	int64_t chunks_per_row;
	int64_t bus_bytes_burst; /* bytes per column command */
	int64_t burst_cyc;       /* DRAM cycles a burst holds the bus */
	int64_t tcl, twl, trcd, trp, tras, trc, trrd, tfaw, tccd, tccdl, twtr, twr, trtp;
	int64_t trefi, trfc, ctrl, queue;
	int64_t lat;             /* fixed: ticks */
	int64_t bytes_per_cyc;   /* fixed: per DRAM cycle */
	uint64_t seq;
	DChan *ch;
};

Dram *dram_new(const Config *cfg, MemSys *ms)
{
	Dram *d = xcalloc(1, sizeof *d);
	d->ms = ms;
	d->fixed = cfg->dram_model == 1;
	d->nch = (int32_t)cfg->dram_channels;
	d->nbank = (int32_t)cfg->dram_banks;
	d->ngrp = (int32_t)cfg->dram_bank_groups;
	d->spc = ms->spc;
	d->chunk_lines = (uint32_t)(cfg->dram_interleave_bytes / ms->line_bytes);
	if (!d->chunk_lines) d->chunk_lines = 1;
	d->chunks_per_row = cfg->dram_row_bytes / ((int64_t)d->chunk_lines * ms->line_bytes);
	if (d->chunks_per_row < 1) d->chunks_per_row = 1;
	d->bus_bytes_burst = cfg->dram_bus_bytes * cfg->dram_burst;
	d->burst_cyc = (cfg->dram_burst + cfg->dram_data_rate - 1) / cfg->dram_data_rate;
	d->tcl = cfg->dram_tcl, d->twl = cfg->dram_twl, d->trcd = cfg->dram_trcd;
	d->trp = cfg->dram_trp, d->tras = cfg->dram_tras, d->trc = cfg->dram_trc;
	d->trrd = cfg->dram_trrd, d->tfaw = cfg->dram_tfaw, d->tccd = cfg->dram_tccd;
	d->tccdl = cfg->dram_tccdl, d->twtr = cfg->dram_twtr, d->twr = cfg->dram_twr;
	d->trtp = cfg->dram_trtp, d->trefi = cfg->dram_trefi, d->trfc = cfg->dram_trfc;
	d->ctrl = cfg->dram_ctrl_lat, d->queue = cfg->dram_queue;
	d->lat = cfg->dram_lat * MEM_TICKS;
	d->bytes_per_cyc = cfg->dram_bus_bytes * cfg->dram_data_rate;
	d->ch = xcalloc((size_t)d->nch, sizeof *d->ch);
	for (int32_t c = 0; c < d->nch; c++) d->ch[c].bank = xcalloc((size_t)d->nbank, sizeof(DBank));
	dram_settle(d);
	return d;
}

void dram_free(Dram *d)
{
	if (!d) return;
	for (int32_t c = 0; c < d->nch; c++) free(d->ch[c].r), free(d->ch[c].bank);
	free(d->ch);
	free(d);
}

void dram_settle(Dram *d)
{
	for (int32_t c = 0; c < d->nch; c++) {
		DChan *ch = &d->ch[c];
		for (int32_t i = 0; i < ch->cap; i++) ch->r[i].next = i + 1 < ch->cap ? i + 1 : -1;
		ch->freer = ch->cap ? 0 : -1;
		ch->n = 0;
		for (int32_t b = 0; b < d->nbank; b++) ch->bank[b] = (DBank){-1, 0, 0, 0, -1, -1};
		ch->act_ok = ch->last_col = ch->rd_ok = ch->wr_ok = ch->bus = 0;
		for (int i = 0; i < 4; i++) ch->faw[i] = INT64_MIN / 4;
		ch->fi = 0;
		ch->last_grp = -1;
		ch->ref_at = d->trefi ? d->trefi : INT64_MAX;
		ch->ref_end = 0;
		ch->busy = 0;
	}
}

int dram_room(const Dram *d, int32_t ch, int n)
{
	return d->fixed || d->ch[ch].n + n <= d->queue;
}

static void count(Dram *d, int write, int64_t bytes)
{
	TStats *st = &d->ms->st;
	if (write) st->dram_writes++, st->dram_write_bytes += (uint64_t)bytes;
	else st->dram_reads++, st->dram_read_bytes += (uint64_t)bytes;
}

static int64_t dcyc(const Dram *d, int64_t tick) { return mem_edge(tick, d->ms->dram_period) / d->ms->dram_period; }
static int64_t dtick(const Dram *d, int64_t cyc) { return cyc * d->ms->dram_period; }

void dram_access(Dram *d, int32_t sl, uint64_t la, int32_t bytes, int64_t t, int32_t mshr)
{
	MemSys *ms = d->ms;
	int32_t c = sl / d->spc;
	DChan *ch = &d->ch[c];
	count(d, mshr < 0, bytes);
	if (d->fixed) {
		int64_t len = (bytes + d->bytes_per_cyc - 1) / d->bytes_per_cyc * ms->dram_period;
		int64_t s = t > ch->busy ? t : ch->busy;
		ch->busy = s + len;
		if (mshr >= 0) l2_fill(ms, sl, mshr, t + d->lat > ch->busy ? t + d->lat : ch->busy);
		return;
	}
	if (ch->freer < 0) {                        /* grow the pool (bounded by dram.queue) */
		int32_t n = ch->cap;
		ch->cap = ch->cap ? 2 * ch->cap : 64;
		ch->r = xrealloc(ch->r, (size_t)ch->cap * sizeof *ch->r);
		for (int32_t i = n; i < ch->cap; i++) ch->r[i].next = i + 1 < ch->cap ? i + 1 : -1;
		ch->freer = n;
	}
	int32_t i = ch->freer;
	DReq *r = &ch->r[i];
	ch->freer = r->next;
	uint64_t cl = la / (uint64_t)ms->nslice * (uint64_t)d->spc + (uint64_t)(sl % d->spc);
	uint64_t chunk = cl / d->chunk_lines;
	int64_t bursts = (bytes + d->bus_bytes_burst - 1) / d->bus_bytes_burst;
	*r = (DReq){d->seq++, dcyc(d, t) + d->ctrl, (int64_t)(chunk / (uint64_t)d->nbank /
	            (uint64_t)d->chunks_per_row), 0, (int32_t)(chunk % (uint64_t)d->nbank), sl, mshr,
	            -1, (uint16_t)(bursts > 0 ? bursts : 1), 0};
	DBank *b = &ch->bank[r->bank];
	if (b->tail >= 0) ch->r[b->tail].next = i;
	else b->head = i;
	b->tail = i;
	ch->n++;
	mem_schedule_min(ms, ms->nslice + c, dtick(d, r->t));
}

/* ---- the scheduler ------------------------------------------------------------------ */

/* earliest cycle a column command of request r (bank b, row open) may issue */
static int64_t col_at(const Dram *d, const DChan *ch, const DBank *b, const DReq *r)
{
	int write = r->mshr < 0;
	int64_t t = b->col_ok > r->t ? b->col_ok : r->t;
	int grp = r->bank % d->ngrp;
	int64_t cc = ch->last_col + (grp == ch->last_grp ? d->tccdl : d->tccd);
	if (cc > t) t = cc;
	int64_t turn = write ? ch->wr_ok : ch->rd_ok;
	if (turn > t) t = turn;
	int64_t bus = ch->bus - (write ? d->twl : d->tcl);     /* its data must find the bus free */
	return bus > t ? bus : t;
}

static int64_t act_at(const Dram *d, const DChan *ch, const DBank *b, const DReq *r)
{
	int64_t t = b->act_ok > r->t ? b->act_ok : r->t;
	if (ch->act_ok > t) t = ch->act_ok;
	if (d->tfaw && ch->faw[ch->fi] + d->tfaw > t) t = ch->faw[ch->fi] + d->tfaw;
	return t;
}

static void done(Dram *d, DChan *ch, int32_t c, int32_t i)
{
	DReq *r = &ch->r[i];
	MemSys *ms = d->ms;
	if (!r->acted) ms->st.dram_row_hits++;
	if (r->mshr >= 0) l2_fill(ms, r->slice, r->mshr, dtick(d, r->end));
	DBank *b = &ch->bank[r->bank];              /* unlink (it is its bank's first row hit) */
	int32_t prev = -1;
	for (int32_t k = b->head; k != i; k = ch->r[k].next) prev = k;
	if (prev >= 0) ch->r[prev].next = r->next;
	else b->head = r->next;
	if (b->tail == i) b->tail = prev;
	r->next = ch->freer;
	ch->freer = i;
	ch->n--;
	l2_wake(ms, c, dtick(d, r->end > 0 ? r->end : 0));
}

static void column(Dram *d, DChan *ch, int32_t c, int32_t i, int64_t now)
{
	DReq *r = &ch->r[i];
	DBank *b = &ch->bank[r->bank];
	int write = r->mshr < 0;
	int64_t start = now + (write ? d->twl : d->tcl);
	if (start < ch->bus) start = ch->bus;
	r->end = start + d->burst_cyc;
	ch->bus = r->end;
	ch->last_col = now;
	ch->last_grp = r->bank % d->ngrp;
	if (write) {
		ch->rd_ok = r->end + d->twtr;
		if (r->end + d->twr > b->pre_ok) b->pre_ok = r->end + d->twr;
	} else {
		int64_t w = now + d->tcl + d->burst_cyc + 2 - d->twl;
		if (w > ch->wr_ok) ch->wr_ok = w;
		if (now + d->trtp > b->pre_ok) b->pre_ok = now + d->trtp;
	}
	if (!--r->bursts) done(d, ch, c, i);
}

static void activate(Dram *d, DChan *ch, int32_t i, int64_t now)
{
	DReq *r = &ch->r[i];
	DBank *b = &ch->bank[r->bank];
	b->row = r->row;
	b->col_ok = now + d->trcd;
	b->pre_ok = now + d->tras;
	b->act_ok = now + d->trc;
	ch->act_ok = now + d->trrd;
	ch->faw[ch->fi] = now;
	ch->fi = (ch->fi + 1) & 3;
	r->acted = 1;
}

void dram_step(Dram *d, int32_t c, int64_t tick)
{
	MemSys *ms = d->ms;
	DChan *ch = &d->ch[c];
	int32_t comp = ms->nslice + c;
	int64_t now = tick / ms->dram_period;
	if (!ch->n) {
		mem_schedule(ms, comp, INT64_MAX);
		return;
	}
	if (now >= ch->ref_at) {                    /* refresh: every bank closed for tRFC */
		int64_t at = ch->ref_at + (now - ch->ref_at) / d->trefi * d->trefi;
		ch->ref_end = at + d->trfc;
		ch->ref_at = at + d->trefi;
		for (int32_t k = 0; k < d->nbank; k++) {
			DBank *b = &ch->bank[k];
			b->row = -1;
			if (ch->ref_end > b->act_ok) b->act_ok = ch->ref_end;
		}
	}
	int64_t soon = INT64_MAX;                   /* the earliest any command may issue */
	int32_t hit = -1, other = -1;
	uint64_t hit_seq = 0, other_seq = 0;
	int other_pre = 0;
	for (int32_t k = 0; k < d->nbank; k++) {
		DBank *b = &ch->bank[k];
		int32_t first = -1, match = -1;         /* oldest arrived; oldest to the open row */
		for (int32_t i = b->head; i >= 0; i = ch->r[i].next) {
			const DReq *r = &ch->r[i];
			if (r->t > now) {
				if (r->t < soon) soon = r->t;
				continue;
			}
			if (first < 0) first = i;
			if (b->row >= 0 && r->row == b->row) {
				match = i;
				break;
			}
		}
		if (match >= 0) {
			int64_t t = col_at(d, ch, b, &ch->r[match]);
			if (t <= now && (hit < 0 || ch->r[match].seq < hit_seq)) hit = match, hit_seq = ch->r[match].seq;
			else if (t > now && t < soon) soon = t;
			continue;
		}
		if (first < 0) continue;
		int pre = b->row >= 0;
		int64_t t = pre ? b->pre_ok : act_at(d, ch, b, &ch->r[first]);
		if (t < ch->ref_end) t = ch->ref_end;
		if (t <= now && (other < 0 || ch->r[first].seq < other_seq))
			other = first, other_seq = ch->r[first].seq, other_pre = pre;
		else if (t > now && t < soon) soon = t;
	}
	if (now < ch->ref_end) hit = other = -1, soon = ch->ref_end;
	if (hit >= 0) {
		column(d, ch, c, hit, now);
	} else if (other >= 0 && other_pre) {
		DBank *b = &ch->bank[ch->r[other].bank];
		b->row = -1;
		if (now + d->trp > b->act_ok) b->act_ok = now + d->trp;
	} else if (other >= 0) {
		activate(d, ch, other, now);
	}
	if (hit >= 0 || other >= 0) soon = now + 1;  /* one command a cycle */
	mem_schedule(ms, comp, ch->n ? dtick(d, soon > now ? soon : now + 1) : INT64_MAX);
}
