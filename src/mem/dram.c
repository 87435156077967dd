/*
 * dram.c -- DRAM channels behind the L2.
 *
 * Address map: consecutive lines interleave across channels; within a
 * channel, dram.row_bytes of consecutive lines share a row of one bank,
 * then the next bank, so a streaming warp hits open rows.
 *
 * frfcfs: each channel keeps one queue; every cycle in which it has an
 * arrived request for a bank that can take a command, it issues one:
 * the oldest request to an open row if any (first ready), else the
 * oldest (first come) -- Rixner et al.'s FR-FCFS, as in GPGPU-Sim and
 * LTRF's Table 3.  Timing per request: an open-row hit needs tCL; a
 * closed bank tRCD + tCL; a row conflict waits for tRAS since the
 * activation, then tRP + tRCD + tCL.  The data then takes the channel's
 * data bus -- its first free slot from tCL after the column command on,
 * calendar.h -- for line_bytes / dram.bytes_per_cycle cycles (kept in 1/256
 * cycles so fractional bandwidths add up exactly), and dram.ctrl_ns of
 * controller and PHY latency is added to the answer.  Timings are in ns
 * (LTRF Table 3 gives GDDR5's) and turned into SM cycles with
 * gpu.clock_mhz.  Left out: refresh, tRRD/tFAW, read-write turnaround,
 * queue limits (the SMs' MSHRs bound reads).
 *
 * fixed: Gebhart et al.'s memory: every access takes dram.lat cycles,
 * at most one line per line_bytes / dram.bytes_per_cycle cycles per
 * channel (the first free bus slot from its arrival on).  No queue: the answer is known when the request arrives.
 *
 * Writes (dirty L2 victims) take the same bank and bus time and nobody
 * waits for them.
 */
#include "mem/mem.h"

#include <math.h>
#include <stdlib.h>

#include "base/base.h"

typedef struct Req {
	uint64_t la;
	int64_t arrive;
	int64_t row;
	int32_t bank;
	int32_t mshr;            /* L2 MSHR to answer; -1 for a write */
	uint64_t seq;            /* age, for first-come */
} Req;

typedef struct Bank {
	int64_t row;             /* open row, -1 = closed */
	int64_t ready;           /* cycle it takes its next command */
	int64_t act;             /* cycle of the last activation */
} Bank;

typedef struct Chan {
	Req *q; int32_t nq, capq;
	Bank *bank;
	Calendar bus;            /* data bus bookings, 1/256 cycles */
	int64_t next;            /* cycle it needs a step, INT64_MAX = none */
} Chan;

struct Dram {
	MemSys *ms;
	int fixed;
	int32_t nch, nbank;
	uint32_t lines_per_row;
	int64_t burst;           /* 1/256 cycles per line */
	int64_t tcl, trcd, trp, tras, ctrl, lat;
	uint32_t line_bytes;
	uint64_t seq;
	Chan *ch;
	int64_t next;            /* min of the channels' next */
};

static int64_t cyc(double ns, double mhz) { return (int64_t)ceil(ns * mhz / 1000.0 - 1e-9); }

Dram *dram_new(const Config *cfg, MemSys *ms)
{
	Dram *d = xcalloc(1, sizeof *d);
	d->ms = ms;
	d->fixed = cfg->dram_model == 1;
	d->nch = (int32_t)cfg->dram_channels;
	d->nbank = (int32_t)cfg->dram_banks;
	d->line_bytes = ms->line_bytes;
	d->lines_per_row = (uint32_t)(cfg->dram_row_bytes / ms->line_bytes);
	if (!d->lines_per_row) d->lines_per_row = 1;
	d->burst = llround(256.0 * ms->line_bytes / cfg->dram_bytes_per_cycle);
	if (d->burst < 1) d->burst = 1;
	double mhz = cfg->gpu_clock_mhz;
	d->tcl = cyc(cfg->dram_tcl_ns, mhz);
	d->trcd = cyc(cfg->dram_trcd_ns, mhz);
	d->trp = cyc(cfg->dram_trp_ns, mhz);
	d->tras = cyc(cfg->dram_tras_ns, mhz);
	d->ctrl = cyc(cfg->dram_ctrl_ns, mhz);
	d->lat = cfg->dram_lat;
	d->ch = xcalloc((size_t)d->nch, sizeof *d->ch);
	for (int32_t c = 0; c < d->nch; c++) {
		Chan *ch = &d->ch[c];
		ch->bank = xcalloc((size_t)d->nbank, sizeof *ch->bank);
		for (int32_t b = 0; b < d->nbank; b++) ch->bank[b] = (Bank){-1, 0, INT64_MIN / 4};
		ch->next = INT64_MAX;
		ch->capq = 64;
		ch->q = xmalloc((size_t)ch->capq * sizeof *ch->q);
	}
	d->next = INT64_MAX;
	return d;
}

void dram_free(Dram *d)
{
	if (!d) return;
	for (int32_t c = 0; c < d->nch; c++) {
		free(d->ch[c].q);
		free(d->ch[c].bank);
	}
	free(d->ch);
	free(d);
}

static void count(Dram *d, int write)
{
	TStats *st = &d->ms->st;
	if (write) {
		st->dram_writes++;
		st->dram_write_bytes += d->line_bytes;
	} else {
		st->dram_reads++;
		st->dram_read_bytes += d->line_bytes;
	}
}

static int64_t ceil256(int64_t x) { return (x + 255) >> 8; }

void dram_access(Dram *d, uint64_t la, int64_t t, int32_t mshr)
{
	Chan *ch = &d->ch[la % (uint64_t)d->nch];
	uint64_t r = la / (uint64_t)d->nch / d->lines_per_row;
	count(d, mshr < 0);
	if (d->fixed) {
		int64_t end = cal_book(&ch->bus, t * 256, d->burst, d->ms->now * 256) + d->burst;
		int64_t done = t + d->lat;
		if (ceil256(end) > done) done = ceil256(end);
		if (mshr >= 0) memsys_l2_fill(d->ms, mshr, done);
		return;
	}
	VEC_RESERVE(ch->q, ch->capq, (size_t)ch->nq + 1);
	uint64_t nb = (uint64_t)d->nbank;
	ch->q[ch->nq++] = (Req){la, t, (int64_t)(r / nb), (int32_t)(r % nb), mshr, d->seq++};
	if (t < ch->next) ch->next = t;
	if (t < d->next) d->next = t;
}

int64_t dram_next(const Dram *d) { return d->next; }

/* issue request i of channel ch at cycle now */
static void issue(Dram *d, Chan *ch, int32_t i, int64_t now)
{
	Req q = ch->q[i];
	ch->q[i] = ch->q[--ch->nq];
	Bank *b = &ch->bank[q.bank];
	int64_t col;
	if (b->row == q.row) {
		col = now;
		d->ms->st.dram_row_hits++;
	} else {
		int64_t act = now;
		if (b->row >= 0) {
			int64_t pre = b->act + d->tras > now ? b->act + d->tras : now;
			act = pre + d->trp;
		}
		b->act = act;
		b->row = q.row;
		col = act + d->trcd;
	}
	int64_t end = cal_book(&ch->bus, (col + d->tcl) * 256, d->burst, now * 256) + d->burst;
	b->ready = col + ceil256(d->burst);
	if (q.mshr >= 0) memsys_l2_fill(d->ms, q.mshr, ceil256(end) + d->ctrl);
}

static void step_chan(Dram *d, Chan *ch, int64_t now)
{
	int32_t pick = -1, hit = 0;
	for (int32_t i = 0; i < ch->nq; i++) {
		const Req *q = &ch->q[i];
		const Bank *b = &ch->bank[q->bank];
		if (q->arrive > now || b->ready > now) continue;
		int h = b->row == q->row;
		if (pick < 0 || (h && !hit) || (h == hit && q->seq < ch->q[pick].seq)) {
			pick = i;
			hit = h;
		}
	}
	if (pick >= 0) issue(d, ch, pick, now);
	ch->next = INT64_MAX;
	for (int32_t i = 0; i < ch->nq; i++) {
		const Req *q = &ch->q[i];
		int64_t t = q->arrive;
		if (ch->bank[q->bank].ready > t) t = ch->bank[q->bank].ready;
		if (t <= now) t = now + 1;
		if (t < ch->next) ch->next = t;
	}
}

void dram_step(Dram *d, int64_t now)
{
	if (d->next > now) return;
	d->next = INT64_MAX;
	for (int32_t c = 0; c < d->nch; c++) {
		Chan *ch = &d->ch[c];
		if (ch->next <= now) step_chan(d, ch, now);
		if (ch->next < d->next) d->next = ch->next;
	}
}
