/*
 * reproduce.c -- `rfsim reproduce PAPER|all`: the experiments registry.
 *
 * Each row of experiments.def is a sweep, a plot and the paper's numbers.
 * For each selected row this runs the sweep into DIR/NAME/ (points/ and
 * results.csv, exactly as `rfsim sweep` would, so a rerun with the same
 * DIR computes nothing that finished), draws DIR/NAME.png, and adds a
 * section to DIR/report.md: the plot, the plotted numbers, the paper's
 * numbers beside ours, and notes on anything that kept the figure from
 * being what the paper drew (a config key or statistic this build lacks,
 * failed points, no gnuplot).  report.md is rewritten after every
 * experiment, so an interrupted run leaves a report of what finished.
 * Experiments of one paper often share simulations (the baseline of
 * several figures): a point another experiment of the same DIR has
 * finished -- same id, so same workload, size and effective config -- is
 * linked into this one's points/ instead of being run again.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "exp/exp.h"

typedef struct Exp {
	const char *name, *paper, *figure, *desc, *sweep, *plot, *published;
} Exp;

static const Exp exps[] = {
#define EXP(n, p, f, d, s, pl, pub) {n, p, f, d, s, pl, pub},
#include "exp/experiments.def"
#undef EXP
};
enum { NEXPS = sizeof exps / sizeof exps[0] };

void exp_list(FILE *f)
{
	int w = 0;                   /* the longest name: columns that line up */
	for (int i = 0; i < NEXPS; i++)
		if ((int)strlen(exps[i].name) > w) w = (int)strlen(exps[i].name);
	for (int i = 0; i < NEXPS; i++)
		fprintf(f, "  %-*s %-10s %s%s%s%s\n", w, exps[i].name, exps[i].paper, exps[i].desc,
		        *exps[i].figure ? " (" : "", exps[i].figure, *exps[i].figure ? ")" : "");
}

/* split a plot-options string into words; 'single quotes' group */
static char **words(const char *s, int *n)
{
	char **v = NULL;
	*n = 0;
	while (*s) {
		while (*s == ' ') s++;
		if (!*s) break;
		char *w = xmalloc(strlen(s) + 1), *o = w;
		for (int q = 0; *s && (q || *s != ' '); s++)
			if (*s == '\'') q = !q;
			else *o++ = *s;
		*o = 0;
		v = xrealloc(v, (*n + 2) * sizeof *v);
		v[(*n)++] = w;
	}
	return v;
}

/* ---- one experiment -------------------------------------------------- */

typedef struct Ctx {
	const ReproOpts *o;
	FILE *md;                /* the report, in memory */
	int failed;              /* failed points, all experiments */
	int interrupted;
} Ctx;

/* "at:X" or "tol:F", then optionally "@SERIES" (default: the first series) */
static void ours(FILE *md, const PlotTable *t, const char *how)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", how);
	char *at = strchr(buf, '@');
	int s = 0;
	if (at) {
		*at++ = 0;
		for (s = 0; s < t->ns && strcmp(t->series[s], at); s++) {}
		if (s == t->ns) {
			fputs("-", md);
			return;
		}
	}
	if (!strncmp(buf, "at:", 3)) {
		double v = plot_value(t, buf + 3, s);
		if (isnan(v)) fputs("-", md);
		else fprintf(md, "%.3f", v);
	} else if (!strncmp(buf, "tol:", 4)) {
		double f = strtod(buf + 4, NULL);
		const char *last = NULL;
		for (int x = 0; x < t->nx && !(t->gmean && x == t->nx - 1); x++) {
			if (!(t->v[x * t->ns + s] >= f)) break;
			last = t->xs[x];
		}
		fprintf(md, "%s%s", last ? last : "below 1", last ? "x" : "");
	} else {
		fputs("-", md);
	}
}

static void published(FILE *md, const Exp *e, const PlotTable *t)
{
	if (!*e->published) return;
	fputs("\n| quantity | paper | rfsim |\n|---|---|---|\n", md);
	char *rows = xstrdup(e->published), *save = NULL;
	for (char *r = strtok_r(rows, "\n", &save); r; r = strtok_r(NULL, "\n", &save)) {
		char *paper = strchr(r, '|'), *how = paper ? strchr(paper + 1, '|') : NULL;
		if (!how) continue;
		*paper++ = 0;
		*how++ = 0;
		fprintf(md, "| %s | %s | ", r, paper);
		if (t) ours(md, t, how);
		else fputs("-", md);
		fputs(" |\n", md);
	}
	free(rows);
}

/* the plot: table into the report, picture into DIR/NAME.png; the results
   are those of experiment src (e itself, or the one its sweep "@NAME" names) */
static void figure(Ctx *c, const Exp *e, const Exp *src, int nfailed)
{
	char csvp[4096], png[4096], title[512];
	snprintf(csvp, sizeof csvp, "%s/%s/results.csv", c->o->dir, src->name);
	snprintf(png, sizeof png, "%s/%s.png", c->o->dir, e->name);
	int nw, help;
	char **w = words(e->plot, &nw);
	w = xrealloc(w, (nw + 4) * sizeof *w);
	w[nw] = "-o";
	w[nw + 1] = png;
	w[nw + 2] = csvp;
	PlotSpec p;
	const char *nocsv;
	Csv csv;
	PlotTable t = {0};
	int have = 0;
	if (plot_parse_opts(nw + 3, w, &p, &nocsv, &help)) {
		fprintf(c->md, "\n*Bad plot options in experiments.def.*\n");
	} else if (p.title = p.title ? p.title : e->desc, csv_read(csvp, &csv)) {
		fprintf(c->md, "\n*No results to plot (%s).*\n", err_msg());
	} else {
		if (!plot_y_found(&csv, p.y)) {
			fprintf(c->md, "\n*This build reports no `%s` (functional runs have "
			        "no cycles): plotted `warp_instructions` "
			        "instead.*\n", p.y);
			snprintf(title, sizeof title, "%s [no %s in this build: warp instructions]",
			         p.title, p.y);
			p.y = "warp_instructions";
			p.ylabel = "warp instructions";
			p.title = title;
		}
		if (plot_table(&csv, &p, &t)) {
			fprintf(c->md, "\n*Nothing to plot: %s.*\n", err_msg());
		} else {
			have = 1;
			if (!plot_gnuplot_found())
				fputs("\n*No plot: gnuplot is not installed (apt-get install gnuplot-nox).*\n",
				      c->md);
			else if (plot_draw(&t, &p))
				fprintf(c->md, "\n*No plot: %s.*\n", err_msg());
			else
				fprintf(c->md, "\n![%s](%s.png)\n", e->desc, e->name);
			fputc('\n', c->md);
			plot_table_print(c->md, &t, &p, 1);
			if (t.dropped)
				fprintf(c->md, "\n%d rows had no `%s` partner and were left out.\n",
				        t.dropped, p.norm);
		}
		csv_free(&csv);
	}
	published(c->md, e, have ? &t : NULL);
	if (nfailed)
		fprintf(c->md, "\n**%d points failed**; see `%s/results.csv` (column error) and "
		        "`%s/points/*.err`.\n", nfailed, src->name, src->name);
	plot_table_free(&t);
	free(p.where);
	for (int i = 0; i < nw; i++) free(w[i]);
	free(w);
}

static int selected(const Exp *e, const char *what);

static const Exp *find_exp(const char *name)
{
	for (int i = 0; i < NEXPS; i++)
		if (!strcmp(exps[i].name, name)) return &exps[i];
	return NULL;
}

/* link points other experiments of the same output directory have finished */
static void share_points(const Ctx *c, const Exp *e, const Sweep *s)
{
	char dir[4096], path[4200], other[4200];
	snprintf(dir, sizeof dir, "%s/%s/points", c->o->dir, e->name);
	if (exp_mkdirs(dir)) return;
	int n;
	Point *pts = sweep_points(s, &n);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s.json", dir, pts[i].id);
		if (!access(path, F_OK)) continue;
		for (int k = 0; k < NEXPS; k++) {
			if (&exps[k] == e) continue;
			snprintf(other, sizeof other, "%s/%s/points/%s.json", c->o->dir, exps[k].name,
			         pts[i].id);
			if (!access(other, F_OK) && !link(other, path)) break;
		}
	}
	sweep_points_free(pts, n);
}

static void run_exp(Ctx *c, const Exp *e)
{
	const Exp *src = e;      /* sweep "@NAME": another plot of experiment NAME's points */
	if (e->sweep[0] == '@' && !(src = find_exp(e->sweep + 1))) {
		fprintf(c->md, "\n## %s: %s\n\n*Cannot run: no experiment '%s'.*\n", e->name, e->desc,
		        e->sweep + 1);
		fprintf(stderr, "rfsim: reproduce %s: no experiment '%s'\n", e->name, e->sweep + 1);
		c->failed++;
		return;
	}
	char *text = xmalloc(strlen(src->sweep) + 4096), dir[4096];
	snprintf(dir, sizeof dir, "%s/%s", c->o->dir, src->name);
	sprintf(text, "%sname = %s\nsize = %s\n", src->sweep, src->name, c->o->size);
	if (c->o->workloads) sprintf(text + strlen(text), "workloads = %s\n", c->o->workloads);
	fprintf(c->md, "\n## %s: %s\n\n", e->name, e->desc);
	if (*e->figure) fprintf(c->md, "Regenerates %s.  ", e->figure);
	if (src != e) fprintf(c->md, "The points of `%s`, plotted differently.  ", src->name);
	fprintf(c->md, "Sweep:\n\n```\n%s```\n", text);
	Sweep s;
	if (sweep_parse(text, e->name, SWEEP_LENIENT, &s)) {
		fprintf(c->md, "\n*Cannot run: %s.*\n", err_msg());
		fprintf(stderr, "rfsim: reproduce %s: %s\n", e->name, err_msg());
		c->failed++;
		free(text);
		return;
	}
	free(text);
	if (s.nmissing) {
		fprintf(c->md, "\n*This build has no config key or value");
		for (int i = 0; i < s.nmissing; i++) fprintf(c->md, "%s `%s`", i ? "," : "", s.missing[i]);
		fprintf(c->md, "%s*\n", s.missing_axis ? ": the experiment needs it and was "
		        "not run."
		        : "; those settings and axis values were dropped.");
	}
	if (s.missing_axis) {
		fprintf(stderr, "rfsim: reproduce %s: skipped, this build lacks", e->name);
		for (int i = 0; i < s.nmissing; i++) fprintf(stderr, " %s", s.missing[i]);
		fputc('\n', stderr);
		sweep_free(&s);
		return;
	}
	share_points(c, src, &s);
	SweepOpts so = {.dir = dir, .jobs = c->o->jobs, .progress = 1};
	SweepStats st;
	if (sweep_run(&s, &so, &st)) {
		c->failed++;
		sweep_free(&s);
		return;
	}
	if (src == e || !selected(src, c->o->what)) c->failed += st.failed;   /* counted once */
	c->interrupted = st.interrupted;
	fprintf(c->md, "\n%d points (%d reused, %d computed, %d failed) in `%s/`.\n", st.total,
	        st.reused, st.computed, st.failed, src->name);
	figure(c, e, src, st.failed);
	sweep_free(&s);
}

static int selected(const Exp *e, const char *what)
{
	return !strcmp(what, "all") || !strcmp(what, e->name) || !strcmp(what, e->paper);
}

static void write_report(Ctx *c, char **buf, size_t *len)
{
	char path[4096];
	fflush(c->md);
	snprintf(path, sizeof path, "%s/report.md", c->o->dir);
	if (exp_write_atomic(path, *buf, *len))
		fprintf(stderr, "rfsim: cannot write %s\n", path);
}

int exp_reproduce(const ReproOpts *o)
{
	int n = 0;
	for (int i = 0; i < NEXPS; i++) n += selected(&exps[i], o->what);
	if (!n) {
		fprintf(stderr, "rfsim: reproduce: no experiment or paper '%s'; known:\n", o->what);
		exp_list(stderr);
		return RF_EINPUT;
	}
	if (exp_mkdirs(o->dir)) {
		fprintf(stderr, "rfsim: cannot create %s: %s\n", o->dir, strerror(errno));
		return RF_EINPUT;
	}
	char *buf = NULL;
	size_t len = 0;
	Ctx c = {.o = o, .md = open_memstream(&buf, &len)};
	fprintf(c.md, "# rfsim reproduce %s\n\nGenerated by `rfsim reproduce %s --size %s%s%s "
	        "-o %s`.  Each experiment's points are in `NAME/points/` and its results in "
	        "`NAME/results.csv`; running the same command again reuses every finished "
	        "point.\n", o->what, o->what, o->size, o->workloads ? " -w " : "",
	        o->workloads ? o->workloads : "", o->dir);
	for (int i = 0; i < NEXPS && !c.interrupted; i++) {
		if (!selected(&exps[i], o->what)) continue;
		run_exp(&c, &exps[i]);
		write_report(&c, &buf, &len);
	}
	fclose(c.md);
	free(buf);
	printf("report: %s/report.md\n", o->dir);
	if (c.interrupted) return 128 + c.interrupted;
	return c.failed > 125 ? 125 : c.failed;
}
