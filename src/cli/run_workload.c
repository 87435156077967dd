/*
 * run_workload.c -- `rfsim run WORKLOAD` and `rfsim compare`.
 *
 * A built-in workload is host code written against the CUDA Driver API
 * (workloads/), so the CLI cannot hand it a GPU: it sets the process-wide
 * config the driver layer builds its GPU from (api_set_config), runs the
 * host code, and reads back the driver's record of the kernels launched
 * (api_kernel_log).  The workload checks its own output against a CPU
 * reference and says pass (0), mismatch (1) or CUDA error (2).
 *
 * `compare` runs the suite, or the named workloads, one after another in
 * this process and prints one row each.  Today the rows are functional
 * counts and simulation speed; register-file model columns join them
 * with the timing model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "base.h"
#include "cli.h"
#include "../../workloads/workloads.h"

typedef struct WlRun {
	int rc;                  /* the workload's: 0 pass, 1 mismatch, 2 CUDA error */
	char msg[1024];          /* its explanation */
	KernelStats *ks;         /* copy of the driver's kernel log */
	int nks;
} WlRun;

static int parse_size(const Opts *o, WlSize *size)
{
	*size = WL_DEFAULT;
	if (!o->size || !wl_size_parse(o->size, size)) return RF_OK;
	return usage_error("bad --size '%s' (expected small, default or large)", o->size);
}

static const Workload *find_workload(const char *name)
{
	const Workload *w = workload_find(name);
	if (w) return w;
	fprintf(stderr, "rfsim: unknown workload '%s'; built-in workloads:\n", name);
	list_workloads(stderr);
	fputs("try 'rfsim --help'\n", stderr);
	return NULL;
}

void list_workloads(FILE *f)
{
	for (int i = 0; i < nworkloads; i++)
		fprintf(f, "  %-16s %-17s %-34s %s\n", workloads[i].name,
		        wl_category_name(workloads[i].category), workloads[i].standin,
		        workloads[i].desc);
}

static void run_one(const Workload *w, WlSize size, const Config *cfg, WlRun *r)
{
	api_set_config(cfg);
	api_kernel_log_clear();
	err_clear();
	WlArgs a = {size, (uint64_t)cfg->seed, w->ptx};
	r->msg[0] = 0;
	r->rc = w->run(&a, r->msg, sizeof r->msg);
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	r->nks = n;
	r->ks = xmalloc((n ? n : 1) * sizeof *ks);
	if (n) memcpy(r->ks, ks, n * sizeof *ks);
	api_kernel_log_clear();
}

/* the workload's complaint on stderr; its exit code (0 or 1) */
static int complain(const Workload *w, const WlRun *r)
{
	if (r->rc == 0) return RF_OK;
	const char *what = r->rc == 1 ? "output check failed" : "CUDA error";
	fprintf(stderr, "rfsim: %s: %s: %s\n", w->name, what, r->msg[0] ? r->msg : "(no details)");
	if (r->rc != 1 && err_msg()[0] && !strstr(r->msg, err_msg()))
		fprintf(stderr, "%s\n", err_msg());
	return RF_ERUNTIME;
}

int cmd_run_workload(const Opts *o)
{
	WlSize size;
	Config cfg;
	int rc;
	if ((rc = args_allow(o, FOR_WL, "run WORKLOAD"))) return rc;
	if (o->npos != 1) return usage_error("run takes one workload or PTX file");
	if ((rc = parse_size(o, &size))) return rc;
	const Workload *w = find_workload(o->pos[0]);
	if (!w) return RF_EINPUT;
	if ((rc = args_config(o, &cfg))) return rc;

	WlRun r;
	run_one(w, size, &cfg, &r);
	rc = complain(w, &r);
	Report rep = {.workload = w->name, .size = wl_size_name(size), .cfg = &cfg,
	              .ks = r.ks, .nks = r.nks, .check = r.rc ? "fail" : "pass",
	              .detail = r.rc ? NULL : r.msg};
	report_summary(stdout, &rep);
	fflush(stdout);
	if (o->stats) {
		int src = report_json(o->stats, &rep);
		if (!rc) rc = src;
	}
	free(r.ks);
	return rc;
}

int cmd_compare(const Opts *o)
{
	WlSize size;
	Config cfg;
	int rc;
	if ((rc = args_allow(o, FOR_CMP, "compare"))) return rc;
	if ((rc = parse_size(o, &size))) return rc;
	for (int i = 0; i < o->npos; i++)
		if (!find_workload(o->pos[i])) return RF_EINPUT;
	if ((rc = args_config(o, &cfg))) return rc;

	int n = o->npos ? o->npos : nworkloads, nfail = 0, nrate = 0;
	double logsum = 0;
	printf("config %s, size %s\n\n", cfg.name, wl_size_name(size));
	printf("%-16s %7s %14s %14s %9s %12s  %s\n", "workload", "kernels", "warp insts",
	       "thread insts", "sim s", "M thr-inst/s", "check");
	for (int i = 0; i < n; i++) {
		const Workload *w = o->npos ? find_workload(o->pos[i]) : &workloads[i];
		WlRun r;
		run_one(w, size, &cfg, &r);
		Totals t = report_totals(r.ks, r.nks);
		double rate = report_rate(t.thread_insts, t.sim_seconds);
		printf("%-16s %7d %14llu %14llu %9.3f %12.2f  %s\n", w->name, t.nkernels,
		       (unsigned long long)t.warp_insts, (unsigned long long)t.thread_insts,
		       t.sim_seconds, rate / 1e6, r.rc ? "FAIL" : "PASS");
		fflush(stdout);
		if (complain(w, &r)) nfail++;
		if (rate > 0) logsum += log(rate), nrate++;
		free(r.ks);
	}
	printf("\ngeometric mean rate: %.2f M thread-inst/s over %d workloads",
	       nrate ? exp(logsum / nrate) / 1e6 : 0.0, nrate);
	printf("; %d of %d checks passed\n", n - nfail, n);
	return nfail ? RF_ERUNTIME : RF_OK;
}
