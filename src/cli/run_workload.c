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
 * `compare` (compare.c) runs each workload as a child `rfsim run` (a
 * sweep's point), so it reaches wl_run through this command.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cli/cli.h"
#include "cli/wlrun.h"

int wl_parse_size(const Opts *o, WlSize *size)
{
	*size = WL_DEFAULT;
	if (!o->size || !wl_size_parse(o->size, size)) return RF_OK;
	return usage_error("bad --size '%s' (expected small, default or large)", o->size);
}

const Workload *wl_find(const char *name)
{
	const Workload *w = workload_find(name);
	if (w) return w;
	fprintf(stderr, "rfsim: unknown workload '%s'; built-in workloads:\n", name);
	list_workloads(stderr);
	fputs("try 'rfsim list'\n", stderr);
	return NULL;
}

void list_workloads(FILE *f)
{
	for (int i = 0; i < nworkloads; i++)
		fprintf(f, "  %-16s %-17s %-34s %s\n", workloads[i].name,
		        wl_category_name(workloads[i].category), workloads[i].standin,
		        workloads[i].desc);
}

void wl_run(const Workload *w, WlSize size, const Config *cfg, WlRun *r)
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

/* the workload's complaint on stderr; its exit code: 0, 1, or 2 where a
 * launch was refused for the config (an input error, as at load time) */
int wl_complain(const Workload *w, const WlRun *r)
{
	if (r->rc == 0) return RF_OK;
	const char *what = r->rc == 1 ? "output check failed" : "CUDA error";
	fprintf(stderr, "rfsim: %s: %s: %s\n", w->name, what, r->msg[0] ? r->msg : "(no details)");
	if (r->rc != 1 && err_msg()[0] && !strstr(r->msg, err_msg()))
		fprintf(stderr, "%s\n", err_msg());
	return r->rc != 1 && api_last_fault() == FAULT_CONFIG ? RF_EINPUT : RF_ERUNTIME;
}

int cmd_run_workload(const Opts *o)
{
	WlSize size;
	Config cfg;
	int rc;
	if ((rc = args_allow(o, FOR_WL, "run WORKLOAD"))) return rc;
	if (o->npos != 1) return usage_error("run takes one workload or PTX file");
	if ((rc = wl_parse_size(o, &size))) return rc;
	const Workload *w = wl_find(o->pos[0]);
	if (!w) return RF_EINPUT;
	if ((rc = args_config(o, &cfg))) return rc;

	WlRun r;
	wl_run(w, size, &cfg, &r);
	rc = wl_complain(w, &r);
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
