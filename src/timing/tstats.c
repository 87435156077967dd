/*
 * tstats.c -- summing and reporting the timing model's counters.
 *
 * The JSON members come straight from tstats.def, in its order, followed
 * by the derived figures the issue names: ipc (warp instructions per
 * cycle, whole GPU), occupancy (average resident warps / warp slots),
 * l1_hit_rate, cc_hit_rate, l2_hit_rate and dram_bytes; then
 * occupancy_theoretical (resident warps allowed / sm.max_warps),
 * RegMutex's rm_* averages (0 where no kernel had an extended set), the
 * resident CTAs per SM: resident_ctas_per_sm (average over SMs and
 * cycles) and ctas_per_sm_limit (what an SM may hold, cycle-weighted over
 * kernels), and LTRF's mean interval lengths (ltrf_ivl_mean,
 * ltrf_opt_mean).  Rows marked TS_MIN or TS_MAX in tstats.def combine by
 * min or max, the rest by a sum.
 */
#include "timing/tstats.h"

#include "base/json.h"

void tstats_add(TStats *dst, const TStats *src)
{
#define TS(f, h) dst->f += src->f;
#define TS_MIN(f, h) if (src->f && (!dst->f || src->f < dst->f)) dst->f = src->f;
#define TS_MAX(f, h) if (src->f > dst->f) dst->f = src->f;
#include "timing/tstats.def"
#undef TS_MAX
#undef TS_MIN
#undef TS
}

double tstats_ipc(const TStats *t, uint64_t warp_insts)
{
	return t->cycles ? (double)warp_insts / (double)t->cycles : 0;
}

double tstats_occupancy(const TStats *t)
{
	return t->warp_slots ? (double)t->warp_cycles / (double)t->warp_slots : 0;
}

double tstats_rate(uint64_t hits, uint64_t misses)
{
	return hits + misses ? (double)hits / (double)(hits + misses) : 0;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0; }

void tstats_json(struct Json *j, const TStats *t, uint64_t warp_insts)
{
#define TS(f, h) json_uint(j, #f, t->f);
#include "timing/tstats.def"
#undef TS
	json_num(j, "ipc", tstats_ipc(t, warp_insts));
	json_num(j, "occupancy", tstats_occupancy(t));
	json_num(j, "l1_hit_rate", tstats_rate(t->l1_hits, t->l1_misses));
	json_num(j, "cc_hit_rate", tstats_rate(t->cc_hits, t->cc_misses));
	json_num(j, "l2_hit_rate", tstats_rate(t->l2_hits, t->l2_misses));
	json_uint(j, "dram_bytes", t->dram_read_bytes + t->dram_write_bytes);
	json_num(j, "gload_latency", ratio(t->gload_cycles, t->gload_count));
	json_num(j, "occupancy_theoretical", ratio(t->warps_allowed, t->warps_allowed_max));
	/* RegMutex (rf_regmutex.c): averages over the SMs and launches it covers */
	json_num(j, "rm_occupancy", ratio(t->rm_warps, t->rm_warp_slots));
	json_num(j, "rm_occupancy_base", ratio(t->rm_warps_base, t->rm_warp_slots));
	json_num(j, "rm_acquire_success", ratio(t->rm_acquires_first, t->rm_acquires));
	json_num(j, "rm_es_avg", ratio(t->rm_es, t->rm_sms));
	json_num(j, "rm_bs_avg", ratio(t->rm_bs, t->rm_sms));
	json_num(j, "rm_regs_avg", ratio(t->rm_regs, t->rm_sms));
	json_num(j, "rm_sections_avg", ratio(t->rm_sections, t->rm_sms));
	json_num(j, "resident_ctas_per_sm",
	         t->sm_cycles ? (double)t->cta_cycles / (double)t->sm_cycles : 0);
	json_num(j, "ctas_per_sm_limit",
	         t->sm_cycles ? (double)t->cta_slot_cycles / (double)t->sm_cycles : 0);
	json_num(j, "ltrf_ivl_mean", t->ltrf_intervals ? (double)t->ltrf_ivl_insts /
	                             (double)t->ltrf_intervals : 0);
	json_num(j, "ltrf_opt_mean", t->ltrf_opt_intervals ? (double)t->ltrf_opt_insts /
	                             (double)t->ltrf_opt_intervals : 0);
}
