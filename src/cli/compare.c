/*
 * compare.c -- `rfsim compare`: the workloads under every register-file
 * model, in one table.  The main job of rfsim (README).
 *
 *   rfsim compare [WORKLOAD...] [-c CONFIG] [--models a,b,...] [--size S]
 *                 [-j N] [--csv FILE]
 *
 * compare is a built-in sweep: the workloads on one config and size, an
 * axis rf.model over the models, the command line's -s settings as `set`
 * lines (sweep_text below, parsed by src/exp/spec.c like any sweep file).
 * src/exp/runner.c runs its points -- each a child `rfsim run --stats`,
 * up to -j at once (default: the processors online) -- into a temporary
 * results directory, removed at the end; the table is read from the
 * points' statistics files, the same "totals" a sweep's CSV holds (ipc is
 * tstats.def's derived figure, energy the stats file's
 * energy.total_normalized).  The numbers are those of one run in this
 * process: the stats file writes integers exactly and every other number
 * with the digits that read back as the same double.
 *
 * Rows, per workload and model: cycles, IPC (warp instructions per
 * cycle), IPC normalized to `baseline` (or to the first model listed when
 * baseline is not), main register file reads and writes, the
 * register-file energy normalized to the baseline design doing the same
 * work (src/energy, computed from each run alone), the output check; then
 * per model the geometric mean of each over the workloads whose check
 * passed.  The models come from models.def, so every model rfsim gains
 * joins the table without a change here.  Rows are printed in order, a
 * workload's as soon as all its models are done (the runner's done
 * callback), so the output does not depend on -j.  Exit 1 if any check
 * fails.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "exp/exp.h"
#include "timing/rf/rf.h"
#include "cli/wlrun.h"

/* the table's columns, defined once: the text table, the CSV and the geomean rows all
 * walk this list.  stat is the point's statistic (a "totals" key of its stats file,
 * the name a sweep's CSV and `plot --y` use; ipc is tstats.def's derived row); kind
 * 's' the workload's or model's name, 'u' a count, 'f' a fraction, 'n' IPC over the
 * reference model's, 'c' the check.  mean, the geomean row: 'x' the
 * geometric mean, '1' that of x + 1 less 1 (counts that may be 0), 'e' over the
 * values > 0 only, 0 left blank. */
typedef struct CmpCol {
	const char *head;        /* table heading; NULL: CSV only */
	TabCol tab;
	const char *csv;         /* CSV heading */
	int csv_at;              /* CSV position (energy_norm comes last there) */
	const char *stat;        /* the statistic shown, or NULL */
	char kind, mean;
} CmpCol;

enum { C_WORKLOAD, C_MODEL, C_CYCLES, C_WARP_INSTS, C_IPC, C_IPC_NORM, C_MRF_READS,
       C_MRF_WRITES, C_ENERGY, C_CHECK, NCOLS };

static const CmpCol cols[NCOLS] = {
	[C_WORKLOAD] = {"workload", {"", 14, 1}, "workload", 0, NULL, 's', 0},
	[C_MODEL] = {"model", {" ", 10, 1}, "model", 1, NULL, 's', 0},
	[C_CYCLES] = {"cycles", {" ", 12, 0}, "cycles", 2, "cycles", 'u', 'x'},
	[C_WARP_INSTS] = {NULL, {"", 0, 0}, "warp_instructions", 3, "warp_instructions", 'u', 0},
	[C_IPC] = {"IPC", {" ", 8, 0}, "ipc", 4, "ipc", 'f', 0},
	[C_IPC_NORM] = {"IPC/ref", {" ", 9, 0}, "ipc_norm", 5, NULL, 'n', 'x'},
	[C_MRF_READS] = {"MRF reads", {" ", 14, 0}, "mrf_reads", 6, "mrf_reads", 'u', '1'},
	[C_MRF_WRITES] = {"MRF writes", {" ", 14, 0}, "mrf_writes", 7, "mrf_writes", 'u', '1'},
	[C_ENERGY] = {"energy", {" ", 8, 0}, "energy_norm", 9, "energy.total_normalized", 'f',
	              'e'},
	[C_CHECK] = {"check", {"  ", 0, 1}, "check", 8, NULL, 'c', 0},
};

typedef struct Cell {        /* one (workload, model) run */
	int rc;                  /* -1 not yet run, 0 pass, 1 check failed, 2 error, 3 crashed */
	double v[NCOLS];         /* the columns with a stat (counts exact: below 2^53) */
	char msg[512];           /* why it failed */
} Cell;

typedef struct CmpRun {
	const Workload **wl; int nwl;
	int model[NRF_MODELS]; int nmodel;
	int ref;                 /* column normalized against */
	WlSize size;
	Config cfg;
	Cell *cell;              /* [wl * nmodel + m] */
	int printed;             /* workloads printed */
	FILE *csv;               /* --csv, or NULL */
	char dir[PATH_MAX];      /* the sweep's temporary results directory */
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

/* ---- output ----------------------------------------------------------------------- */

static const char *check_word(int rc)
{
	return rc == 0 ? "PASS" : rc == 1 ? "FAIL" : rc == 2 ? "ERROR" : "CRASH";
}

static const Cell *cell_at(const CmpRun *c, int wl, int m)
{
	return &c->cell[wl * c->nmodel + m];
}

/* column k's value in cell x, whose reference model's cell is r */
static double value(const Cell *x, const Cell *r, int k)
{
	if (cols[k].kind != 'n') return x->v[k];
	return r->v[C_IPC] > 0 ? x->v[C_IPC] / r->v[C_IPC] : 0;
}

/* one row (table and CSV): text[k] holds column k's cell as each prints it */
static void print_row(const CmpRun *c, char text[NCOLS][2][64])
{
	TabCol tab[NCOLS];
	const char *cell[NCOLS];
	int n = 0;
	for (int k = 0; k < NCOLS; k++)
		if (cols[k].head) tab[n] = cols[k].tab, cell[n++] = text[k][0];
	exp_table_row(stdout, tab, cell, n, 0);
	for (int at = 0; at < NCOLS && c->csv; at++)
		for (int k = 0; k < NCOLS; k++)
			if (cols[k].csv_at == at) {
				if (at) fputc(',', c->csv);
				csv_field(c->csv, text[k][1]);
			}
	if (c->csv) fputc('\n', c->csv);
}

static void print_header(const CmpRun *c)
{
	char text[NCOLS][2][64];
	for (int k = 0; k < NCOLS; k++) {
		snprintf(text[k][0], 64, "%s", cols[k].head ? cols[k].head : "");
		snprintf(text[k][1], 64, "%s", cols[k].csv);
	}
	print_row(c, text);
}

static void print_workload(const CmpRun *c, int i)
{
	for (int m = 0; m < c->nmodel; m++) {
		const Cell *x = cell_at(c, i, m), *r = cell_at(c, i, c->ref);
		const char *name = rf_model_name[c->model[m]];
		char text[NCOLS][2][64];
		for (int k = 0; k < NCOLS; k++) {
			double v = value(x, r, k);
			const char *s = k == C_WORKLOAD ? c->wl[i]->name : k == C_MODEL ? name
			                : check_word(x->rc);
			if (cols[k].kind == 'u') snprintf(text[k][1], 64, "%llu", (unsigned long long)v);
			else if (cols[k].kind == 'f' || cols[k].kind == 'n')
				snprintf(text[k][1], 64, "%.6f", v);
			else snprintf(text[k][1], 64, "%s", s);
			if (cols[k].kind == 'f' || cols[k].kind == 'n') snprintf(text[k][0], 64, "%.3f", v);
			else snprintf(text[k][0], 64, "%s", k == C_WORKLOAD && m ? "" : text[k][1]);
		}
		print_row(c, text);
		if (x->rc) fprintf(stderr, "rfsim: %s under %s: %s\n", c->wl[i]->name, name, x->msg);
	}
	fflush(stdout);
}

/* a geomean row's workloads: those whose check passed under model m and the
 * reference model, with cycles and both IPCs */
static int counted(const CmpRun *c, int i, int m)
{
	const Cell *x = cell_at(c, i, m), *r = cell_at(c, i, c->ref);
	return !x->rc && !r->rc && x->v[C_CYCLES] && x->v[C_IPC] > 0 && r->v[C_IPC] > 0;
}

/* column k's geometric mean under model m */
static double col_mean(const CmpRun *c, int m, int k)
{
	double logsum = 0;
	int n = 0;
	for (int i = 0; i < c->nwl; i++) {
		double v = value(cell_at(c, i, m), cell_at(c, i, c->ref), k);
		if (!counted(c, i, m) || (cols[k].mean == 'e' && !(v > 0))) continue;
		logsum += log(cols[k].mean == '1' ? v + 1 : v);
		n++;
	}
	double g = n ? exp(logsum / n) : 0;
	return cols[k].mean == '1' ? g - 1 : g;
}

static void print_geomean(const CmpRun *c)
{
	for (int m = 0; m < c->nmodel; m++) {
		int n = 0;
		for (int i = 0; i < c->nwl; i++) n += counted(c, i, m);
		char text[NCOLS][2][64];
		for (int k = 0; k < NCOLS; k++) {
			double g = cols[k].mean ? col_mean(c, m, k) : 0;
			const char *s = k == C_WORKLOAD ? "geomean" : rf_model_name[c->model[m]];
			if (cols[k].kind == 'c') snprintf(text[k][1], 64, "%d workloads", n);
			else if (cols[k].kind == 's') snprintf(text[k][1], 64, "%s", s);
			else if (!cols[k].mean) text[k][1][0] = 0;
			else snprintf(text[k][1], 64, cols[k].kind == 'u' ? "%.1f" : "%.6f", g);
			if (!cols[k].mean || cols[k].kind == 'c' || cols[k].kind == 's')
				snprintf(text[k][0], 64, "%s", k == C_WORKLOAD && m ? "" : text[k][1]);
			else snprintf(text[k][0], 64, cols[k].kind == 'u' ? "%.0f" : "%.3f", g);
		}
		print_row(c, text);
	}
}

/* ---- the sweep ----------------------------------------------------------------------- */

/* compare's points as sweep-file text: point m * nwl + w is workload w under model m */
static char *sweep_text(const Opts *o, const CmpRun *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("name = compare\nworkloads =", f);
	for (int i = 0; i < c->nwl; i++) fprintf(f, "%s %s", i ? "," : "", c->wl[i]->name);
	/* no -c: the defaults, which are the built-in config they name */
	fprintf(f, "\nconfigs = %s\nsize = %s\n", o->config ? o->config : c->cfg.name,
	        wl_size_name(c->size));
	for (int i = 0; i < o->nsets; i++) {
		size_t k = strcspn(o->sets[i], "=");
		if (strncmp(o->sets[i], "rf.model", k) || k != 8)   /* the axis decides it */
			fprintf(f, "set %.*s = %s\n", (int)k, o->sets[i], o->sets[i] + k + 1);
	}
	if (o->max_cycles) fprintf(f, "set sim.max_cycles = %s\n", o->max_cycles);
	fputs("set sim.progress = false\naxis rf.model =", f);
	for (int m = 0; m < c->nmodel; m++)
		fprintf(f, "%s %s", m ? "," : "", rf_model_name[c->model[m]]);
	fputc('\n', f);
	fclose(f);
	return text;
}

static const char *stat_text(const PointResult *r, const char *key)
{
	for (int i = 0; i < r->nstats; i++)
		if (!strcmp(r->keys[i], key)) return r->vals[i];
	return "0";
}

/* the rest of log's first line holding `what`, into msg; 0 if none holds it */
static int after(const char *log, const char *what, char *msg, size_t n)
{
	const char *p = log ? strstr(log, what) : NULL;
	if (!p) return 0;
	p += strlen(what);
	size_t len = strcspn(p, "\n");
	snprintf(msg, n, "%.*s", (int)(len < 500 ? len : 500), p);
	const char *next = p + len + (p[len] == '\n');      /* the driver's line, if any */
	size_t nlen = strcspn(next, "\n");
	if (!strcmp(what, ": CUDA error: ") && nlen && strncmp(next, "rfsim: ", 7))
		snprintf(msg, n, "%.*s: %.*s", (int)(len < 200 ? len : 200), p,
		         (int)(nlen < 300 ? nlen : 300), next);
	return 1;
}

/* a failed point's kind (the Cell's rc) and the workload's complaint, which its
 * child `rfsim run` printed as "rfsim: W: output check failed: MSG" or "rfsim: W:
 * CUDA error: MSG", the driver's message on the next line when MSG lacks it
 * (wl_complain); else the runner's line: a signal, a timeout, an exit status */
static int failure(const char *dir, const Point *p, const PointResult *r, char *msg, size_t n)
{
	char path[PATH_MAX + 64];
	const char *e = r->error ? r->error : "no result";
	int rc = !strncmp(e, "exit ", 5) ? 2 : 3;
	snprintf(path, sizeof path, "%s/points/%s.err", dir, p->id);
	char *log = read_file(path, FILE_LOG, NULL);
	err_clear();
	if (after(log, ": output check failed: ", msg, n)) rc = 1;
	else if (!after(log, ": CUDA error: ", msg, n)) snprintf(msg, n, "%.500s", e);
	free(log);
	return rc;
}

static void cell_of(const CmpRun *c, const Point *p, const PointResult *r, Cell *x)
{
	memset(x, 0, sizeof *x);
	x->rc = r->status == PR_OK ? 0 : failure(c->dir, p, r, x->msg, sizeof x->msg);
	for (int k = 0; k < NCOLS; k++)
		if (cols[k].stat) x->v[k] = strtod(stat_text(r, cols[k].stat), NULL);
}

static void print_ready(CmpRun *c)
{
	while (c->printed < c->nwl) {
		for (int m = 0; m < c->nmodel; m++)
			if (c->cell[c->printed * c->nmodel + m].rc < 0) return;
		print_workload(c, c->printed++);
	}
}

/* the runner's callback: point m * nwl + w is done */
static void point_done(void *ctx, const Point *p, const PointResult *r)
{
	CmpRun *c = ctx;
	cell_of(c, p, r, &c->cell[p->index % c->nwl * c->nmodel + p->index / c->nwl]);
	print_ready(c);
}

/* remove the temporary results directory: points/ and the files in both */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[PATH_MAX];
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (unlink(path)) remove_dir(path);
	}
	if (d) closedir(d);
	rmdir(dir);
}

static int run_sweep(const Opts *o, CmpRun *c, int jobs)
{
	Sweep s;
	char *text = sweep_text(o, c), *dir = c->dir;
	int rc = sweep_parse(text, "compare", SWEEP_STRICT, &s);
	free(text);
	if (rc) return fail(rc, "%s", err_msg());
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof c->dir, "%s/rfsim-compare-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		sweep_free(&s);
		return fail(RF_ERUNTIME, "cannot create %s: %s", dir, strerror(errno));
	}
	/* point m * nwl + w is workload w under model m: start them workload by workload */
	int *order = xmalloc(sizeof(int) * ((size_t)c->nwl * (size_t)c->nmodel + 1));
	for (int w = 0, k = 0; w < c->nwl; w++)
		for (int m = 0; m < c->nmodel; m++) order[k++] = m * c->nwl + w;
	SweepOpts so = {.dir = dir, .jobs = jobs, .done = point_done, .ctx = c, .order = order};
	SweepStats st;
	rc = sweep_run(&s, &so, &st);
	free(order);
	remove_dir(dir);
	sweep_free(&s);
	return rc ? rc : st.interrupted ? 128 + st.interrupted : RF_OK;
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
	if (o->csv && !(c.csv = fopen(o->csv, "w"))) {
		free(c.wl);
		return fail(RF_EINPUT, "cannot write --csv file '%s': %s", o->csv, strerror(errno));
	}
	int n = c.nwl * c.nmodel;
	c.cell = xcalloc((size_t)n, sizeof *c.cell);
	for (int j = 0; j < n; j++) c.cell[j].rc = -1;
	printf("config %s, size %s; IPC normalized to %s\n\n", c.cfg.name, wl_size_name(c.size),
	       rf_model_name[c.model[c.ref]]);
	print_header(&c);
	fflush(stdout);
	rc = run_sweep(o, &c, jobs < n ? jobs : n);
	if (!rc) {
		printf("\n");
		print_geomean(&c);
	}
	int nfail = 0;
	for (int j = 0; j < n; j++) nfail += c.cell[j].rc != 0;
	if (!rc) printf("\n%d of %d runs passed their checks\n", n - nfail, n);
	if (c.csv && fclose(c.csv) && !rc) rc = fail(RF_ERUNTIME, "error writing '%s'", o->csv);
	free(c.cell);
	free(c.wl);
	return rc ? rc : nfail ? RF_ERUNTIME : RF_OK;
}
