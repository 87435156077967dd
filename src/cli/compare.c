/*
 * compare.c -- `rfsim compare`: the workloads under every register-file
 * model, in one table.  The main job of rfsim (README).
 *
 *   rfsim compare [WORKLOAD...] [-c CONFIG] [--models a,b,...] [--size S]
 *                 [-j N] [--csv FILE]
 *
 * Each (workload, model) pair is one run of the timing model with
 * rf.model set (the config's other keys as given).  Rows, per workload
 * and model: cycles, IPC (warp instructions per cycle), IPC normalized to
 * `baseline` (or to the first model listed when baseline is not), main
 * register file reads and writes, the register-file energy normalized to
 * the baseline design doing the same work (src/energy: total_normalized,
 * computed from each run alone), the output check; then per model the
 * geometric mean of each over the workloads whose check passed.  The
 * models come from models.def, so every model rfsim gains joins the table
 * without a change here.
 *
 * With -j N (default: the processors online) up to N pairs run at once,
 * each in a forked child that sends its row back through a pipe; rows are
 * printed in order, a workload's as soon as all its models are done, so
 * the output does not depend on N.  Exit 1 if any check fails.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "energy/energy.h"
#include "timing/rf/rf.h"
#include "cli/wlrun.h"

typedef struct Cell {        /* one (workload, model) run */
	int rc;                  /* 0 pass, 1 check failed, 2 CUDA error, 3 crashed */
	uint64_t cycles, warp_insts, mrf_reads, mrf_writes;
	double ipc;
	double energy;           /* register-file energy / the baseline design's */
	char msg[512];           /* why it failed */
} Cell;

typedef struct CmpRun {
	const Workload **wl; int nwl;
	int model[NRF_MODELS]; int nmodel;
	int ref;                 /* column normalized against */
	WlSize size;
	Config cfg;
	Cell *cell;              /* [wl * nmodel + m] */
} CmpRun;

static int parse_models(const char *list, CmpRun *c)
{
	c->nmodel = 0;
	if (!list) {
		for (int m = 0; m < NRF_MODELS; m++) c->model[c->nmodel++] = m;
		return RF_OK;
	}
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ",");
		int found = -1;
		for (int m = 0; m < NRF_MODELS; m++)
			if (strlen(rf_model_name[m]) == n && !strncmp(p, rf_model_name[m], n)) found = m;
		for (int i = 0; i < c->nmodel && found >= 0; i++)
			if (c->model[i] == found)
				return usage_error("--models: '%.*s' is named twice", (int)n, p);
		if (found < 0 || c->nmodel == NRF_MODELS) {
			fprintf(stderr, "rfsim: --models: unknown register-file model '%.*s'; the "
			        "models:\n", (int)n, p);
			for (int m = 0; m < NRF_MODELS; m++)
				fprintf(stderr, "  %-12s %s\n", rf_model_name[m], rf_model_desc[m]);
			return RF_EINPUT;
		}
		c->model[c->nmodel++] = found;
		p += n + (p[n] == ',');
	}
	return c->nmodel ? RF_OK : usage_error("--models needs at least one model");
}

static void run_cell(const CmpRun *c, int job, Cell *out)
{
	const Workload *w = c->wl[job / c->nmodel];
	Config cfg = c->cfg;
	cfg.rf_model = c->model[job % c->nmodel];
	WlRun r;
	wl_run(w, c->size, &cfg, &r);
	memset(out, 0, sizeof *out);
	out->rc = r.rc;
	snprintf(out->msg, sizeof out->msg, "%.500s", r.rc ? r.msg : "");
	if (r.rc == 2 && err_msg()[0] && !strstr(r.msg, err_msg()))
		snprintf(out->msg, sizeof out->msg, "%.200s: %.300s", r.msg, err_msg());
	Totals t = report_totals(r.ks, r.nks);
	out->cycles = t.ts.cycles;
	out->warp_insts = t.warp_insts;
	out->mrf_reads = t.ts.mrf_reads;
	out->mrf_writes = t.ts.mrf_writes;
	out->ipc = tstats_derived(&t.ts, t.warp_insts, TD_ipc);
	Energy e;
	energy_compute(&cfg, &t.ts, &e);
	out->energy = e.total_normalized;
	free(r.ks);
}

/* ---- output ----------------------------------------------------------------------- */

static const char *check_word(int rc)
{
	return rc == 0 ? "PASS" : rc == 1 ? "FAIL" : rc == 2 ? "ERROR" : "CRASH";
}

static void print_workload(const CmpRun *c, int i, FILE *csv)
{
	const Cell *row = &c->cell[i * c->nmodel];
	double ref = row[c->ref].ipc;
	for (int m = 0; m < c->nmodel; m++) {
		const Cell *x = &row[m];
		const char *name = rf_model_name[c->model[m]];
		double norm = ref > 0 ? x->ipc / ref : 0;
		printf("%-14s %-10s %12llu %8.3f %9.3f %14llu %14llu %8.3f  %s\n",
		       m ? "" : c->wl[i]->name, name, (unsigned long long)x->cycles, x->ipc, norm,
		       (unsigned long long)x->mrf_reads, (unsigned long long)x->mrf_writes,
		       x->energy, check_word(x->rc));
		if (x->rc) fprintf(stderr, "rfsim: %s under %s: %s\n", c->wl[i]->name, name, x->msg);
		if (csv)
			fprintf(csv, "%s,%s,%llu,%llu,%.6f,%.6f,%llu,%llu,%s,%.6f\n", c->wl[i]->name,
			        name, (unsigned long long)x->cycles, (unsigned long long)x->warp_insts,
			        x->ipc, norm, (unsigned long long)x->mrf_reads,
			        (unsigned long long)x->mrf_writes, check_word(x->rc), x->energy);
	}
	fflush(stdout);
}

static double gmean(double logsum, int n) { return n ? exp(logsum / n) : 0; }

static void print_geomean(const CmpRun *c, FILE *csv)
{
	for (int m = 0; m < c->nmodel; m++) {
		double lc = 0, ln = 0, lr = 0, lw = 0, le = 0;
		int n = 0, ne = 0;
		for (int i = 0; i < c->nwl; i++) {
			const Cell *x = &c->cell[i * c->nmodel + m], *r = &c->cell[i * c->nmodel + c->ref];
			if (x->rc || r->rc || !x->cycles || x->ipc <= 0 || r->ipc <= 0) continue;
			lc += log((double)x->cycles);
			ln += log(x->ipc / r->ipc);
			lr += log((double)(x->mrf_reads + 1));
			lw += log((double)(x->mrf_writes + 1));
			n++;
			if (x->energy > 0) le += log(x->energy), ne++;
		}
		const char *name = rf_model_name[c->model[m]];
		printf("%-14s %-10s %12.0f %8s %9.3f %14.0f %14.0f %8.3f  %d workloads\n",
		       m ? "" : "geomean", name, gmean(lc, n), "", gmean(ln, n), gmean(lr, n) - 1,
		       gmean(lw, n) - 1, gmean(le, ne), n);
		if (csv)
			fprintf(csv, "geomean,%s,%.1f,,,%.6f,%.1f,%.1f,%d workloads,%.6f\n", name,
			        gmean(lc, n), gmean(ln, n), gmean(lr, n) - 1, gmean(lw, n) - 1, n,
			        gmean(le, ne));
	}
}

/* ---- running: in this process, or in up to -j forked children ----------------------- */

typedef struct Child { pid_t pid; int job; int fd; } Child;

static void child(const CmpRun *c, int job, int fd)
{
	Cell x;
	run_cell(c, job, &x);
	ssize_t n = write(fd, &x, sizeof x);
	_exit(n == (ssize_t)sizeof x ? 0 : 3);
}

/* wait for one child; record its cell */
static void reap(CmpRun *c, Child *kids, int nkid)
{
	int status;
	pid_t pid = waitpid(-1, &status, 0);
	for (int k = 0; k < nkid; k++) {
		if (kids[k].pid != pid || pid <= 0) continue;
		Cell *x = &c->cell[kids[k].job];
		if (read(kids[k].fd, x, sizeof *x) != (ssize_t)sizeof *x) {
			memset(x, 0, sizeof *x);
			x->rc = 3;
			snprintf(x->msg, sizeof x->msg, "the run ended abnormally (status %d)", status);
		}
		close(kids[k].fd);
		kids[k].pid = 0;
	}
}

static int start(const CmpRun *c, Child *kid, int job)
{
	int p[2];
	if (pipe(p)) return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[0]);
		child(c, job, p[1]);
	}
	close(p[1]);
	*kid = (Child){pid, job, p[0]};
	return 0;
}

static void print_ready(const CmpRun *c, int *printed, FILE *csv)
{
	while (*printed < c->nwl) {
		for (int m = 0; m < c->nmodel; m++)
			if (c->cell[*printed * c->nmodel + m].rc < 0) return;
		print_workload(c, (*printed)++, csv);
	}
}

static void run_all(CmpRun *c, int jobs, FILE *csv)
{
	int n = c->nwl * c->nmodel, next = 0, running = 0, printed = 0;
	Child *kids = xcalloc((size_t)jobs, sizeof *kids);
	while (printed < c->nwl) {
		for (int k = 0; k < jobs && next < n; k++) {
			if (kids[k].pid) continue;
			if (jobs > 1 && !start(c, &kids[k], next)) running++;
			else run_cell(c, next, &c->cell[next]);   /* -j 1, or no fork: here */
			next++;
		}
		if (running) {
			reap(c, kids, jobs);
			running--;
		}
		print_ready(c, &printed, csv);
	}
	free(kids);
}

static int setup(const Opts *o, CmpRun *c, int *jobs)
{
	int rc;
	memset(c, 0, sizeof *c);
	if ((rc = args_allow(o, FOR_CMP, "compare"))) return rc;
	if ((rc = wl_parse_size(o, &c->size))) return rc;
	if ((rc = parse_models(o->models, c))) return rc;
	c->nwl = o->npos ? o->npos : nworkloads;
	c->wl = xcalloc((size_t)c->nwl, sizeof *c->wl);
	for (int i = 0; i < c->nwl; i++)
		if (!(c->wl[i] = o->npos ? wl_find(o->pos[i]) : &workloads[i])) return RF_EINPUT;
	if ((rc = args_config(o, &c->cfg))) return rc;
	/* a functional run has no cycles, IPC or register counts: every column but the check
	   would be 0, and the geometric means of nothing -1 */
	if (c->cfg.sim_mode != SIM_MODE_TIMING)
		return usage_error("compare needs the timing model (config key sim.mode is "
		                   "functional; allowed: timing)");
	c->cfg.sim_progress = 0;
	for (int m = c->ref = 0; m < c->nmodel; m++)
		if (c->model[m] == RF_baseline) c->ref = m;
	*jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (*jobs < 1) *jobs = 1;
	return RF_OK;
}

int cmd_compare(const Opts *o)
{
	CmpRun c;
	int jobs = 1, rc = setup(o, &c, &jobs);
	if (rc) {
		free(c.wl);
		return rc;
	}
	FILE *csv = NULL;
	if (o->csv && !(csv = fopen(o->csv, "w"))) {
		free(c.wl);
		return fail(RF_EINPUT, "cannot write --csv file '%s': %s", o->csv, strerror(errno));
	}
	if (csv) fputs("workload,model,cycles,warp_instructions,ipc,ipc_norm,mrf_reads,"
	               "mrf_writes,check,energy_norm\n", csv);
	int n = c.nwl * c.nmodel;
	c.cell = xcalloc((size_t)n, sizeof *c.cell);
	for (int j = 0; j < n; j++) c.cell[j].rc = -1;
	printf("config %s, size %s; IPC normalized to %s\n\n", c.cfg.name, wl_size_name(c.size),
	       rf_model_name[c.model[c.ref]]);
	printf("%-14s %-10s %12s %8s %9s %14s %14s %8s  %s\n", "workload", "model", "cycles",
	       "IPC", "IPC/ref", "MRF reads", "MRF writes", "energy", "check");
	run_all(&c, jobs < n ? jobs : n, csv);
	printf("\n");
	print_geomean(&c, csv);
	int nfail = 0;
	for (int j = 0; j < n; j++) nfail += c.cell[j].rc != 0;
	printf("\n%d of %d runs passed their checks\n", n - nfail, n);
	if (csv && fclose(csv)) rc = fail(RF_ERUNTIME, "error writing '%s'", o->csv);
	free(c.cell);
	free(c.wl);
	return rc ? rc : nfail ? RF_ERUNTIME : RF_OK;
}
