/*
 * report.c -- what a run tells people: the summary printed after
 * `rfsim run`.  What it tells programs, the --stats JSON, is written by
 * src/api/report.c, shared with libcudart's RFSIM_STATS so that both files
 * have the same keys.
 */
#include <string.h>

#include "cli.h"

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
	fprintf(f, "%-20s %.3f\n", "sim seconds", t.sim_seconds);
	fprintf(f, "%-20s %.2f M warp-inst/s, %.2f M thread-inst/s\n", "rate",
	        report_rate(t.warp_insts, t.sim_seconds) / 1e6,
	        report_rate(t.thread_insts, t.sim_seconds) / 1e6);
	if (strcmp(r->check, "none"))
		fprintf(f, "%-20s %s%s%s%s\n", "check", !strcmp(r->check, "pass") ? "PASS" : "FAIL",
		        r->detail && *r->detail ? " (" : "", r->detail ? r->detail : "",
		        r->detail && *r->detail ? ")" : "");
}
