/*
 * report.c -- what a run tells people: the summary printed after
 * `rfsim run`.  What it tells programs, the --stats JSON, is written by
 * src/api/report.c, shared with libcudart's RFSIM_STATS so that both files
 * have the same keys.  A timing run adds the cycles, IPC and occupancy,
 * register-file accesses and energy (src/energy), the scheduler-slot
 * breakdown and hit rates; under a two-level scheduler its deactivations
 * by cause, and under LTRF its MRF traffic by cause.
 */
#include <string.h>

#include "cli/cli.h"
#include "energy/energy.h"

/* pJ in the unit that keeps it below 1000 ("11.39 uJ"), into buf */
static const char *joules(char *buf, size_t n, double pj)
{
	static const char *const unit[] = {"pJ", "nJ", "uJ", "mJ", "J"};
	int u = 0;
	for (; u < 4 && pj >= 999.995; u++) pj /= 1000;
	snprintf(buf, n, "%.2f %s", pj, unit[u]);
	return buf;
}

/* the timing model's headline figures; derived ones from tstats.def's TD rows */
static void report_timing(FILE *f, const Totals *t, const Config *cfg)
{
	const TStats *s = &t->ts;
	double d[NTDERIVED];
	for (int i = 0; i < NTDERIVED; i++) d[i] = tstats_derived(s, t->warp_insts, i);
	fprintf(f, "%-20s %llu\n", "cycles", (unsigned long long)s->cycles);
	fprintf(f, "%-20s %.3f warp instructions per cycle, occupancy %.1f%%\n", "ipc",
	        d[TD_ipc], 100 * d[TD_occupancy]);
	fprintf(f, "%-20s %llu reads, %llu writes, %llu bank conflicts\n", "register file",
	        (unsigned long long)s->mrf_reads, (unsigned long long)s->mrf_writes,
	        (unsigned long long)s->bank_conflicts);
	Energy e;
	energy_compute(cfg, s, &e);
	char b[4][32];
	fprintf(f, "%-20s %s (MRF %s, RFC %s, wire %s), %.3f of the baseline design's\n",
	        "register energy", joules(b[0], 32, e.total_pj), joules(b[1], 32, e.mrf_pj),
	        joules(b[2], 32, e.rfc_pj), joules(b[3], 32, e.wire_pj), e.total_normalized);
	fprintf(f, "%-20s issue %.1f%%, idle %.1f%%, rf %.1f%%, mem %.1f%%, scoreboard %.1f%%, "
	        "barrier %.1f%%, other %.1f%%\n", "scheduler slots", d[TD_issue_pct],
	        d[TD_stall_idle_pct], d[TD_stall_rf_pct], d[TD_stall_mem_pct],
	        d[TD_stall_scoreboard_pct], d[TD_stall_barrier_pct], d[TD_stall_other_pct]);
	if (s->activations)
		fprintf(f, "%-20s %.1f per 1000 warp instructions: load %.1f (L1 hit %.1f), "
		        "barrier %.1f, exit %.1f, other %.1f\n", "deactivations",
		        d[TD_activations_pki], d[TD_deact_longlat_pki], d[TD_deact_longlat_l1hit_pki],
		        d[TD_deact_barrier_pki], d[TD_deact_exit_pki], d[TD_deact_other_pki]);
	if (s->ltrf_prefetches) {
		fprintf(f, "%-20s intervals of %.1f instructions (optimal %.1f); MRF reads %llu "
		        "PREFETCH + %llu refetch + %llu miss, writes %llu PREFETCH + %llu "
		        "deactivation + %llu resume + %llu late\n", "ltrf",
		        d[TD_ltrf_ivl_mean], d[TD_ltrf_opt_mean],
		        (unsigned long long)s->ltrf_regs_prefetched,
		        (unsigned long long)s->ltrf_refetches, (unsigned long long)s->ltrf_miss_reads,
		        (unsigned long long)s->ltrf_wb_prefetch,
		        (unsigned long long)s->ltrf_wb_deactivate,
		        (unsigned long long)s->ltrf_wb_resume, (unsigned long long)s->ltrf_late_writes);
	}
	fprintf(f, "%-20s L1 %.1f%%, L2 %.1f%%, constant %.1f%%; DRAM %.2f MB\n", "hit rates",
	        100 * d[TD_l1_hit_rate], 100 * d[TD_l2_hit_rate], 100 * d[TD_cc_hit_rate],
	        d[TD_dram_bytes] / 1e6);
}

void report_summary(FILE *f, const Report *r)
{
	Totals t = report_totals(r->ks, r->nks);
	const char *mode = r->cfg->sim_mode == SIM_MODE_FUNCTIONAL ? "functional" : "timing";
	fprintf(f, "%-20s %s\n", "workload", r->workload);
	if (r->size) fprintf(f, "%-20s %s\n", "size", r->size);
	fprintf(f, "%-20s %s (%s)\n", "config", r->cfg->name, mode);
	fprintf(f, "%-20s %d\n", "kernels", t.nkernels);
	if (!r->size) {                     /* a PTX run: say what ran */
		for (int i = 0; i < r->nks; i++) {
			const KernelStats *k = &r->ks[i];
			fprintf(f, "  %s<<<(%u,%u,%u), (%u,%u,%u)>>> %d regs/thread\n", k->name,
			        k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y,
			        k->block.z, k->regs_per_thread);
		}
	}
	fprintf(f, "%-20s %llu\n", "warp instructions", (unsigned long long)t.warp_insts);
	fprintf(f, "%-20s %llu\n", "thread instructions", (unsigned long long)t.thread_insts);
	if (t.timed) report_timing(f, &t, r->cfg);
	fprintf(f, "%-20s %.3f\n", "sim seconds", t.sim_seconds);
	fprintf(f, "%-20s %.2f M warp-inst/s, %.2f M thread-inst/s\n", "rate",
	        report_rate(t.warp_insts, t.sim_seconds) / 1e6,
	        report_rate(t.thread_insts, t.sim_seconds) / 1e6);
	if (strcmp(r->check, "none"))
		fprintf(f, "%-20s %s%s%s%s\n", "check", !strcmp(r->check, "pass") ? "PASS" : "FAIL",
		        r->detail && *r->detail ? " (" : "", r->detail ? r->detail : "",
		        r->detail && *r->detail ? ")" : "");
}
