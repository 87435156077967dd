/*
 * sweep.c -- `rfsim sweep`, `rfsim plot` and `rfsim reproduce`: the
 * command-line face of src/exp/ (sweeps, results, plots, experiments).
 *
 * These commands share no options with run/compare beyond their names,
 * so each has its own small option table here (plot's lives in
 * src/exp/plot.c, since reproduce also parses plot options).  Exit
 * status of sweep and reproduce: 0 when every point finished; else the
 * number of failed points, at most 125; 128+N when stopped by signal N
 * (rerun to continue); 2 for a usage or sweep-file error, before any
 * point runs.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "cli/cli.h"
#include "exp/exp.h"

typedef struct XOpt {
	const char *shrt, *lng, *arg, *help;
} XOpt;

/* the option argv[*i] names (index into t), its value in *v; -1 positional,
 * -2 usage error (printed) */
static int xopt(int argc, char **argv, int *i, const XOpt *t, int n, const char **v)
{
	const char *a = argv[*i];
	*v = NULL;
	if (a[0] != '-' || !a[1]) return -1;
	for (int k = 0; k < n; k++) {
		size_t ll = strlen(t[k].lng);
		const char *inl = NULL;
		if (!strcmp(a, t[k].lng) || (t[k].shrt && !strcmp(a, t[k].shrt)))
			inl = NULL;
		else if (t[k].arg && !strncmp(a, t[k].lng, ll) && a[ll] == '=')
			inl = a + ll + 1;
		else if (t[k].arg && t[k].shrt && !strncmp(a, t[k].shrt, 2) && a[1] != '-')
			inl = a + 2;
		else
			continue;
		if (t[k].arg && !inl) {
			if (*i + 1 >= argc) return usage_error("option %s needs a value (%s)", a, t[k].arg), -2;
			inl = argv[++*i];
		}
		*v = inl;
		return k;
	}
	return usage_error("unknown option '%s'", a), -2;
}

static void xhelp(FILE *f, const XOpt *t, int n)
{
	for (int k = 0; k < n; k++) {
		char left[64];
		snprintf(left, sizeof left, "%s%s%s%s%s", t[k].shrt ? t[k].shrt : "",
		         t[k].shrt ? ", " : "    ", t[k].lng, t[k].arg ? " " : "",
		         t[k].arg ? t[k].arg : "");
		fprintf(f, "  %-26s  %s\n", left, t[k].help);
	}
}

static int count(const char *s, const char *what, int lo, int *out)
{
	uint64_t v;
	if (parse_u64(s, &v) || v < (uint64_t)lo || v > 1000000)
		return usage_error("bad %s '%s' (a number >= %d)", what, s, lo);
	*out = (int)v;
	return RF_OK;
}

static int cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

static int exit_code(int failed, int sig)
{
	return sig ? 128 + sig : failed > 125 ? 125 : failed;
}

/* ---- sweep ----------------------------------------------------------- */

enum { S_JOBS, S_OUT, S_SLURM, S_CHUNK, S_TASK, S_TIMEOUT, S_QUIET, S_HELP, NSOPT };

static const XOpt sopts[NSOPT] = {
	[S_JOBS] = {"-j", "--jobs", "N", "simulations at once [number of cores]"},
	[S_OUT] = {"-o", "--out", "DIR", "results directory [FILE without extension + .results]"},
	[S_SLURM] = {NULL, "--emit-slurm", "DIR", "write DIR/NAME.slurm, a Slurm job array; run nothing"},
	[S_CHUNK] = {NULL, "--chunk", "K", "points per Slurm array task [8; more past 8000]"},
	[S_TASK] = {NULL, "--task", "I", "run only chunk I (what a Slurm task does)"},
	[S_TIMEOUT] = {NULL, "--timeout", "SECONDS", "fail a point that runs longer [none]"},
	[S_QUIET] = {"-q", "--quiet", NULL, "no progress output"},
	[S_HELP] = {"-h", "--help", NULL, "show this help"},
};

static void help_sweep(FILE *f)
{
	fputs("usage: rfsim sweep FILE [-j N] [-o DIR] [--timeout S]\n"
	      "       rfsim sweep FILE --emit-slurm DIR [--chunk K] [-o DIR]\n\n"
	      "Runs the cross product of a sweep file's workloads, configs, sizes and axes\n"
	      "(README, \"Sweeps\"), one `rfsim run` per point, and writes DIR/results.csv\n"
	      "(one row per point) and DIR/points/ID.json.  Rerunning skips finished points,\n"
	      "so an interrupted sweep loses only the points in flight.\n\n"
	      "  # example sweep file\n"
	      "  workloads = saxpy, sgemm\n"
	      "  configs   = maxwell-ltrf\n"
	      "  size      = small\n"
	      "  axis rf.mrf_latency = 1..8\n\n"
	      "options:\n", f);
	xhelp(f, sopts, NSOPT);
	fputs("\nExit status: 0 all points ok; N = number of failed points (at most 125);\n"
	      "128+SIG if interrupted; 2 for a usage or sweep-file error.\n", f);
}

static void default_out(const char *file, char *out, size_t n)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	const char *dot = strrchr(base, '.');
	size_t len = dot && dot != base ? (size_t)(dot - file) : strlen(file);
	snprintf(out, n, "%.*s.results", (int)len, file);
}

typedef struct SwArgs {
	const char *file, *slurm;
	SweepOpts so;
	int chunk_given, help;
} SwArgs;

static int sweep_args(int argc, char **argv, SwArgs *a)
{
	a->so.jobs = cores();
	a->so.chunk = 0;
	a->so.task = -1;
	a->so.progress = 1;
	int chunk = 8;
	for (int i = 0; i < argc; i++) {
		const char *v;
		int k = xopt(argc, argv, &i, sopts, NSOPT, &v), rc = RF_OK;
		if (k == -2) return CLI_EUSAGE;      /* xopt said why */
		if (k == -1 && a->file) return usage_error("sweep takes one file ('%s')", argv[i]);
		double t;
		char *end;
		switch (k) {
		case -1: a->file = argv[i]; break;
		case S_JOBS: rc = count(v, "-j", 1, &a->so.jobs); break;
		case S_OUT: a->so.dir = v; break;
		case S_SLURM: a->slurm = v; break;
		case S_CHUNK: rc = count(v, "--chunk", 1, &chunk), a->chunk_given = 1; break;
		case S_TASK: rc = count(v, "--task", 0, &a->so.task); break;
		case S_TIMEOUT:
			t = strtod(v, &end);
			if (*end || !(t > 0)) rc = usage_error("bad --timeout '%s' (seconds)", v);
			a->so.timeout_s = t;
			break;
		case S_QUIET: a->so.progress = 0; break;
		case S_HELP: a->help = 1; return RF_OK;
		}
		if (rc) return rc;
	}
	if (!a->file) return usage_error("sweep needs a sweep file");
	if (a->so.task >= 0 && !a->chunk_given)
		return usage_error("--task needs --chunk (as the Slurm script passes them)");
	if (a->so.task >= 0 || a->slurm) a->so.chunk = chunk;
	if (a->so.task < 0) a->so.chunk = a->slurm ? chunk : 0;
	return RF_OK;
}

int cmd_sweep(int argc, char **argv)
{
	SwArgs a = {0};
	int rc = sweep_args(argc, argv, &a);
	if (rc || a.help) {
		if (a.help) help_sweep(stdout);
		return rc;
	}
	char out[4096];
	if (!a.so.dir) default_out(a.file, out, sizeof out), a.so.dir = out;
	Sweep s;
	if (sweep_load(a.file, &s)) return fail(RF_EINPUT, "%s", err_msg());
	if (a.slurm) {
		char script[4096];
		if (!a.chunk_given) a.so.chunk = 0;
		rc = sweep_emit_slurm(&s, a.file, a.so.dir, a.slurm, &a.so.chunk, script, sizeof script);
		if (rc) rc = fail(rc, "%s", err_msg());
		else printf("wrote %s: a job array over the points of %s, %d per task\n"
		            "submit it with sbatch; afterwards merge with: rfsim sweep %s -o %s\n",
		            script, a.file, a.so.chunk, a.file, a.so.dir);
		sweep_free(&s);
		return rc;
	}
	SweepStats st;
	rc = sweep_run(&s, &a.so, &st);
	if (!rc) {
		printf("%s: %d points: %d reused, %d computed, %d failed (%.1f s)", s.name, st.total,
		       st.reused, st.computed, st.failed, st.seconds);
		if (a.so.chunk) printf("; task %d done, merge with: rfsim sweep %s -o %s\n",
		                       a.so.task, a.file, a.so.dir);
		else printf("; results in %s/results.csv\n", a.so.dir);
		if (st.interrupted) printf("interrupted: rerun the same command to continue\n");
		rc = exit_code(st.failed, st.interrupted);
	}
	sweep_free(&s);
	return rc;
}

/* ---- plot ------------------------------------------------------------ */

int cmd_plot(int argc, char **argv)
{
	PlotSpec p;
	const char *file;
	int help, rc = plot_parse_opts(argc, argv, &p, &file, &help);
	if (help) plot_help(stdout);
	if (rc || help) {
		free(p.where);
		return rc;
	}
	Csv c;
	PlotTable t;
	if (csv_read(file, &c)) {
		free(p.where);
		return fail(RF_EINPUT, "%s", err_msg());
	}
	if (plot_table(&c, &p, &t)) {
		rc = fail(RF_EINPUT, "plot: %s: %s", file, err_msg());
	} else {
		plot_table_print(stdout, &t, &p, 0);
		if (t.dropped)
			fprintf(stderr, "rfsim: plot: %d rows have no %s partner; left out\n",
			        t.dropped, p.norm);
		if (t.arith) fprintf(stderr, "rfsim: plot: a group holds values <= 0; "
		                     "arithmetic mean used there\n");
		rc = plot_draw(&t, &p);
		if (rc) fail(rc, "plot: %s", err_msg());
		else printf("wrote %s\n", p.out);
		plot_table_free(&t);
	}
	csv_free(&c);
	free(p.where);
	return rc;
}

/* ---- reproduce ------------------------------------------------------- */

enum { R_SIZE, R_JOBS, R_OUT, R_WL, R_LIST, R_HELP, NROPT };

static const XOpt ropts[NROPT] = {
	[R_SIZE] = {NULL, "--size", "small|default|large", "workload input size [default]"},
	[R_JOBS] = {"-j", "--jobs", "N", "simulations at once [number of cores]"},
	[R_OUT] = {"-o", "--out", "DIR", "output: report.md, plots, results [reproduce-WHAT]"},
	[R_WL] = {"-w", "--workloads", "A,B,...", "only these workloads (default: each "
	          "experiment's suite)"},
	[R_LIST] = {NULL, "--list", NULL, "list the experiments"},
	[R_HELP] = {"-h", "--help", NULL, "show this help"},
};

static void help_reproduce(FILE *f)
{
	fputs("usage: rfsim reproduce EXPERIMENT|PAPER|all [--size S] [-j N] [-o DIR]\n\n"
	      "Runs the experiments that regenerate a paper's figures and writes\n"
	      "DIR/report.md with the plots, our numbers and the paper's.  Rerunning with\n"
	      "the same DIR reuses every finished point.\n\noptions:\n", f);
	xhelp(f, ropts, NROPT);
	fputs("\nexperiments (name, paper, what):\n", f);
	exp_list(f);
}

int cmd_reproduce(int argc, char **argv)
{
	ReproOpts o = {.size = "default", .jobs = cores()};
	char out[4096];
	for (int i = 0; i < argc; i++) {
		const char *v;
		int k = xopt(argc, argv, &i, ropts, NROPT, &v), rc = RF_OK;
		if (k == -2) return CLI_EUSAGE;      /* xopt said why */
		if (k == -1 && o.what) return usage_error("reproduce takes one name ('%s')", argv[i]);
		switch (k) {
		case -1: o.what = argv[i]; break;
		case R_SIZE:
			if (strcmp(v, "small") && strcmp(v, "default") && strcmp(v, "large"))
				rc = usage_error("bad --size '%s' (expected small, default or large)", v);
			o.size = v;
			break;
		case R_JOBS: rc = count(v, "-j", 1, &o.jobs); break;
		case R_OUT: o.dir = v; break;
		case R_WL: o.workloads = v; break;
		case R_LIST: o.list = 1; break;
		case R_HELP: help_reproduce(stdout); return RF_OK;
		}
		if (rc) return rc;
	}
	if (o.list) {
		exp_list(stdout);
		return RF_OK;
	}
	if (!o.what) return usage_error("reproduce needs an experiment, a paper or 'all' "
	                                "(rfsim reproduce --list)");
	if (!o.dir) snprintf(out, sizeof out, "reproduce-%s", o.what), o.dir = out;
	return exp_reproduce(&o);
}
