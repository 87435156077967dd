/*
 * report.c -- the statistics file of a run (report.h).
 *
 * One JSON object:
 *
 *   rfsim_version  rfsim's version
 *   workload       built-in workload name, the PTX file's path, or the
 *                  program's name (a CUDA program run with RFSIM_STATS)
 *   size           "small" | "default" | "large", null for the others
 *   check          "pass" | "fail" | "none" (nothing was checked)
 *   config         the effective config (config_json): name and every key
 *   kernels        per launch, in order: name, grid [x,y,z], block [x,y,z],
 *                  dyn_shared_bytes, regs_per_thread, warp_instructions,
 *                  thread_instructions, sim_seconds; with sim.digest,
 *                  memory_digest (16 hex digits: every live device
 *                  allocation after the kernel, gmem_digest)
 *   totals         kernels, warp_instructions, thread_instructions,
 *                  sim_seconds, warp_inst_per_sec, thread_inst_per_sec,
 *                  check (again, beside the numbers it qualifies)
 *
 * A timing run adds to each kernel and, summed over the kernels, to totals
 * the timing model's counters and derived figures (src/timing/tstats.def and
 * tstats.c: cycles, ipc, occupancy, mrf_reads, mrf_writes, bank_conflicts,
 * the stall_* breakdown per scheduler slot, cache hit rates, dram_bytes),
 * then the register-file energy object "energy" (src/energy/energy.c:
 * mrf_pj, rfc_pj, wire_pj, total_pj, total_normalized, areas).
 *
 * Only sim_seconds and the two rates depend on the host; everything else
 * is identical between two runs of the same command (DESIGN.md:
 * deterministic), which tests/test_cli.py checks.
 */
#include "api/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base/json.h"
#include "energy/energy.h"

Totals report_totals(const KernelStats *ks, int n)
{
	Totals t = {.nkernels = n};
	for (int i = 0; i < n; i++) {
		t.warp_insts += ks[i].warp_insts;
		t.thread_insts += ks[i].thread_insts;
		t.sim_seconds += ks[i].sim_seconds;
		if (ks[i].timed) tstats_add(&t.ts, &ks[i].ts);
		t.timed |= ks[i].timed;
	}
	return t;
}

double report_rate(uint64_t insts, double seconds)
{
	return seconds > 0 ? (double)insts / seconds : 0;
}

static void dim3_json(Json *j, const char *key, Dim3 d)
{
	json_arr_begin(j, key);
	json_uint(j, NULL, d.x);
	json_uint(j, NULL, d.y);
	json_uint(j, NULL, d.z);
	json_arr_end(j);
}

static void kernels_json(Json *j, const Report *r)
{
	json_arr_begin(j, "kernels");
	for (int i = 0; i < r->nks; i++) {
		const KernelStats *k = &r->ks[i];
		json_obj_begin(j, NULL);
		json_str(j, "name", k->name);
		dim3_json(j, "grid", k->grid);
		dim3_json(j, "block", k->block);
		json_uint(j, "dyn_shared_bytes", k->dyn_shmem);
		json_int(j, "regs_per_thread", k->regs_per_thread);
		json_uint(j, "warp_instructions", k->warp_insts);
		json_uint(j, "thread_instructions", k->thread_insts);
		json_num(j, "sim_seconds", k->sim_seconds);
		if (k->digested) {
			char hex[24];
			snprintf(hex, sizeof hex, "%016llx", (unsigned long long)k->mem_digest);
			json_str(j, "memory_digest", hex);
		}
		if (k->timed) {
			tstats_json(j, &k->ts, k->warp_insts);
			energy_json(j, r->cfg, &k->ts);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

int report_json(const char *path, const Report *r)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "rfsim: cannot write stats file '%s': %s\n", path, strerror(errno));
		return RF_EINPUT;
	}
	Totals t = report_totals(r->ks, r->nks);
	Json *j = json_open(f);
	json_obj_begin(j, NULL);
	json_str(j, "rfsim_version", RFSIM_VERSION);
	json_str(j, "workload", r->workload);
	if (r->size) json_str(j, "size", r->size);
	else json_null(j, "size");
	json_str(j, "check", r->check);
	json_key(j, "config");
	config_json(r->cfg, j);
	kernels_json(j, r);
	json_obj_begin(j, "totals");
	json_int(j, "kernels", t.nkernels);
	json_uint(j, "warp_instructions", t.warp_insts);
	json_uint(j, "thread_instructions", t.thread_insts);
	json_num(j, "sim_seconds", t.sim_seconds);
	json_num(j, "warp_inst_per_sec", report_rate(t.warp_insts, t.sim_seconds));
	json_num(j, "thread_inst_per_sec", report_rate(t.thread_insts, t.sim_seconds));
	if (t.timed) {
		tstats_json(j, &t.ts, t.warp_insts);
		energy_json(j, r->cfg, &t.ts);
	}
	json_str(j, "check", r->check);
	json_obj_end(j);
	json_obj_end(j);
	int rc = json_close(j);
	if (fclose(f) && !rc) rc = RF_ERUNTIME;
	if (rc) {
		fprintf(stderr, "rfsim: error writing stats file '%s'\n", path);
		return RF_ERUNTIME;
	}
	return RF_OK;
}
