/*
 * plot.c -- `rfsim plot`: a results CSV into a table, then into gnuplot.
 *
 * Plotting is two steps, so `reproduce` can print the numbers it plots:
 *
 * plot_table selects the rows (status ok, every --where COLUMN=VALUE),
 * optionally normalizes each row's STAT to its partner's -- the row that
 * has COLUMN=VALUE (each of a comma-separated list of them) and agrees on
 * every other input column (the columns before "status"), which is how
 * "IPC normalized to latency 1x" is meant
 * per workload -- and then groups rows by (x, series).  Rows that share
 * both (the workloads, when neither x nor series is the workload) are
 * combined by their geometric mean, the mean of ratios that papers use;
 * a group holding a value <= 0 falls back to the arithmetic mean.
 * --geomean appends a "gmean" group: per series, the geometric mean over
 * the x groups (the bars at the right of a paper's figure).  --mean arith
 * uses the arithmetic mean instead, for quantities papers average that way
 * (shares of accesses avoided, miss rates).
 *
 * --y is a statistic column or a ratio of two, optionally subtracted from
 * one: STAT, A/B or 1-A/B, computed per row before anything else (e.g.
 * 1-mrf_reads/reg_reads, the share of register reads a cache kept from the
 * main register file; 1-rfc_hits/rfc_reads, a miss rate).  A STAT the CSV
 * has no column for may be a derived figure of tstats.def (stall_mem_pct,
 * deact_exit_pki, ...): tstats_derived computes it from the row's counter
 * columns, by the formula the JSON's and the run summary's figures use.
 *
 * plot_draw writes a gnuplot script, data inline as a datablock, to
 * gnuplot's stdin (gnuplot-nox is installed by .ci/run; $GNUPLOT names
 * another binary).  Numeric x without --geomean gives lines with points,
 * x sorted; anything else clustered bars.  Output by extension: .png
 * (pngcairo, else the libgd png terminal) or .svg.  Axes are labelled
 * with the column names unless --xlabel/--ylabel say better; the legend
 * is titled with the series column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "exp/exp.h"
#include "timing/tstats.h"

/* ---- options --------------------------------------------------------- */

typedef struct POpt {
	const char *name, *arg, *help;
} POpt;

enum { P_X, P_Y, P_SERIES, P_NORM, P_GEOMEAN, P_MEAN, P_WHERE, P_STYLE, P_TITLE, P_XLABEL,
       P_YLABEL, P_OUT, P_HELP, NPOPT };

static const POpt popts[NPOPT] = {
	[P_X] = {"--x", "COLUMN", "x axis: an input column (workload, config, an axis)"},
	[P_Y] = {"--y", "STAT", "y axis: a statistic column (ipc, cycles, ...), or A/B or "
	         "1-A/B of two (per row)"},
	[P_SERIES] = {"--series", "COLUMN", "one bar colour or line per value of COLUMN"},
	[P_NORM] = {"--normalize-to", "COLUMN=VALUE[,...]",
	            "divide each row's STAT by that of its row with COLUMN=VALUE (and "
	            "every other pair given), the same elsewhere"},
	[P_GEOMEAN] = {"--geomean", NULL, "add a \"gmean\" group: geometric mean over x"},
	[P_WHERE] = {"--where", "COLUMN=VALUE", "only rows with COLUMN=VALUE (repeatable)"},
	[P_STYLE] = {"--style", "bars|lines", "default: lines for numeric x, else bars"},
	[P_TITLE] = {"--title", "TEXT", "plot title"},
	[P_XLABEL] = {"--xlabel", "TEXT", "x axis label [the column name]"},
	[P_YLABEL] = {"--ylabel", "TEXT", "y axis label [the statistic]"},
	[P_OUT] = {"-o", "FILE.png|FILE.svg", "output file (required)"},
	[P_HELP] = {"--help", NULL, "show this help"},
	[P_MEAN] = {"--mean", "geo|arith", "how rows and the gmean group combine [geo]"},
};

void plot_help(FILE *f)
{
	fputs("usage: rfsim plot RESULTS.csv --x COLUMN --y STAT [--series COLUMN]\n"
	      "                  [--normalize-to COLUMN=VALUE[,...]] [--geomean] -o FILE.png|svg\n\n"
	      "Plots a sweep's results.csv through gnuplot and prints the plotted numbers.\n"
	      "Rows sharing x and series (e.g. the workloads) are combined by geometric\n"
	      "mean.\n\noptions:\n", f);
	for (int k = 0; k < NPOPT; k++) {
		char left[64];
		snprintf(left, sizeof left, "%s%s%s", popts[k].name, popts[k].arg ? " " : "",
		         popts[k].arg ? popts[k].arg : "");
		fprintf(f, "  %-28s %s\n", left, popts[k].help);
	}
}

static int set_popt(PlotSpec *p, int k, const char *v)
{
	switch (k) {
	case P_X: p->x = v; break;
	case P_Y: p->y = v; break;
	case P_SERIES: p->series = v; break;
	case P_NORM: p->norm = v; break;
	case P_GEOMEAN: p->geomean = 1; break;
	case P_WHERE:
		p->where = xrealloc(p->where, (p->nwhere + 1) * sizeof *p->where);
		p->where[p->nwhere++] = v;
		break;
	case P_STYLE:
		if (!strcmp(v, "bars")) p->style = STYLE_BARS;
		else if (!strcmp(v, "lines")) p->style = STYLE_LINES;
		else return -1;
		break;
	case P_TITLE: p->title = v; break;
	case P_XLABEL: p->xlabel = v; break;
	case P_YLABEL: p->ylabel = v; break;
	case P_OUT: p->out = v; break;
	case P_MEAN:
		if (!strcmp(v, "arith")) p->arith = 1;
		else if (!strcmp(v, "geo")) p->arith = 0;
		else return -2;
		break;
	}
	return 0;
}

static int bad_opt(const char *fmt, const char *a)
{
	fputs("rfsim: plot: ", stderr);
	fprintf(stderr, fmt, a);
	fputs("\ntry 'rfsim plot --help'\n", stderr);
	return RF_EINPUT;
}

static int check_spec(const PlotSpec *p, const char *csv)
{
	if (!csv) return bad_opt("needs a results CSV%s", "");
	if (!p->x || !p->y || !p->out) return bad_opt("needs --x, --y and -o%s", "");
	const char *dot = strrchr(p->out, '.');
	if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
		return bad_opt("-o '%s': the file must end in .png or .svg", p->out);
	if (p->norm && !strchr(p->norm, '='))
		return bad_opt("--normalize-to '%s': expected COLUMN=VALUE", p->norm);
	for (int i = 0; i < p->nwhere; i++)
		if (!strchr(p->where[i], '='))
			return bad_opt("--where '%s': expected COLUMN=VALUE", p->where[i]);
	return RF_OK;
}

int plot_parse_opts(int argc, char **argv, PlotSpec *p, const char **csv, int *help)
{
	memset(p, 0, sizeof *p);
	*csv = NULL;
	*help = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (a[0] != '-' || !a[1]) {
			if (*csv) return bad_opt("one CSV only ('%s')", a);
			*csv = a;
			continue;
		}
		int k = 0;
		size_t nl = 0;
		for (; k < NPOPT; k++) {
			nl = strlen(popts[k].name);
			if (!strncmp(a, popts[k].name, nl) && (!a[nl] || (a[nl] == '=' && popts[k].arg)))
				break;
		}
		if (k == NPOPT && !strcmp(a, "-h")) k = P_HELP;
		if (k == NPOPT) return bad_opt("unknown option '%s'", a);
		if (k == P_HELP) {
			*help = 1;
			return RF_OK;
		}
		if (popts[k].arg) {
			if (a[nl] == '=') v = a + nl + 1;
			else if (i + 1 < argc) v = argv[++i];
			else return bad_opt("option %s needs a value", a);
		}
		int e = set_popt(p, k, v);
		if (e == -1) return bad_opt("--style '%s': bars or lines", v);
		if (e == -2) return bad_opt("--mean '%s': geo or arith", v);
	}
	return check_spec(p, *csv);
}

/* ---- the table ------------------------------------------------------- */

static int find(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], s)) return i;
	return -1;
}

static int add_name(char ***v, int *n, const char *s)
{
	int i = find(*v, *n, s);
	if (i >= 0) return i;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[*n] = xstrdup(s);
	return (*n)++;
}

static int need_col(const Csv *c, const char *name, const char *what)
{
	int i = csv_col(c, name);
	if (i >= 0) return i;
	err_set("no column '%s' (%s) in the results; columns:", name, what);
	for (int k = 0; k < c->ncols; k++) err_append(" %s", c->cols[k]);
	return -1;
}

static int num(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v);
}

/* --y: STAT, A/B or 1-A/B, where a STAT is a column or, where the CSV has no
 * column of that name, a derived figure of tstats.def (a TD row such as
 * stall_mem_pct) computed from the row's counter columns */
typedef struct YTerm {
	int col;                 /* a column, or -1 */
	int derived;             /* else a TD_* figure */
} YTerm;

enum { NCOUNTERS = sizeof(TStats) / sizeof(uint64_t) };

typedef struct YExpr {
	int one_minus;
	YTerm a, b;              /* b.col = b.derived = -1: no divisor */
	int wi;                  /* warp_instructions' column (derived terms), or -1 */
	int ncnt;                /* counter columns: cnt_col[i] holds TStats word cnt_at[i] */
	int cnt_col[NCOUNTERS], cnt_at[NCOUNTERS];
} YExpr;

/* a column or, without one, a derived figure whose counters the CSV has */
static int term_find(const Csv *c, const char *name, YTerm *t)
{
	t->col = csv_col(c, name);
	t->derived = t->col < 0 && csv_col(c, "cycles") >= 0 ? tstats_derived_find(name) : -1;
	return t->col >= 0 || t->derived >= 0;
}

static int split_y(const char *y, int *one_minus, char *a, char *b, size_t n)
{
	*one_minus = !strncmp(y, "1-", 2);
	if (*one_minus) y += 2;
	const char *sl = strchr(y, '/');
	snprintf(a, n, "%.*s", (int)(sl ? (size_t)(sl - y) : strlen(y)), y);
	snprintf(b, n, "%s", sl ? sl + 1 : "");
	return *a && (!sl || *b);
}

int plot_y_found(const Csv *c, const char *y)
{
	char a[256], b[256];
	int om;
	YTerm t;
	if (term_find(c, y, &t)) return 1;
	return split_y(y, &om, a, b, sizeof a) && term_find(c, a, &t) && (!*b || term_find(c, b, &t));
}

static int need_term(const Csv *c, const char *name, YTerm *t)
{
	if (term_find(c, name, t)) return RF_OK;
	return need_col(c, name, "--y") < 0 ? RF_EINPUT : RF_OK;
}

/* where the counters a derived term reads sit among the columns */
static void find_counters(const Csv *c, YExpr *e)
{
	TStats t;
	e->wi = csv_col(c, "warp_instructions");
	e->ncnt = 0;
	for (int k = c->ninputs; k < c->ncols && e->ncnt < NCOUNTERS; k++) {
		const uint64_t *f = tstats_counter(&t, c->cols[k]);
		if (!f) continue;
		e->cnt_col[e->ncnt] = k;
		e->cnt_at[e->ncnt++] = (int)(f - (const uint64_t *)(const void *)&t);
	}
}

static int y_parse(const Csv *c, const char *y, YExpr *e)
{
	char a[256], b[256];
	e->one_minus = 0;
	e->b = (YTerm){-1, -1};
	if (!term_find(c, y, &e->a)) {
		if (!split_y(y, &e->one_minus, a, b, sizeof a)) {
			err_set("--y '%s': expected STAT, A/B or 1-A/B", y);
			return RF_EINPUT;
		}
		if (need_term(c, a, &e->a)) return RF_EINPUT;
		if (*b && need_term(c, b, &e->b)) return RF_EINPUT;
	}
	find_counters(c, e);
	return RF_OK;
}

static const char *cell(const Csv *c, int r, int col)
{
	return c->cells[(size_t)r * c->ncols + col];
}

static int term_value(const Csv *c, int r, const YExpr *e, const YTerm *t, double *v)
{
	if (t->col >= 0) return num(cell(c, r, t->col), v);
	TStats ts;
	uint64_t *w = (uint64_t *)(void *)&ts;
	memset(&ts, 0, sizeof ts);
	for (int i = 0; i < e->ncnt; i++)
		w[e->cnt_at[i]] = strtoull(cell(c, r, e->cnt_col[i]), NULL, 10);
	uint64_t wi = e->wi >= 0 ? strtoull(cell(c, r, e->wi), NULL, 10) : 0;
	*v = tstats_derived(&ts, wi, t->derived);
	return 1;
}

static int y_value(const Csv *c, int r, const YExpr *e, double *y)
{
	double d;
	if (!term_value(c, r, e, &e->a, y)) return 0;
	if (e->b.col >= 0 || e->b.derived >= 0) {
		if (!term_value(c, r, e, &e->b, &d) || d == 0) return 0;
		*y /= d;
	}
	if (e->one_minus) *y = 1 - *y;
	return 1;
}

typedef struct Sel {         /* the rows plot_table works on */
	int *row;
	double *y;
	int n;
} Sel;


/* does row r match every --where? */
static int where_ok(const Csv *c, int r, const PlotSpec *p, const int *wcol)
{
	for (int i = 0; i < p->nwhere; i++)
		if (strcmp(cell(c, r, wcol[i]), strchr(p->where[i], '=') + 1)) return 0;
	return 1;
}

enum { MAXNORM = 8 };

typedef struct Norm {        /* --normalize-to C1=V1[,C2=V2...]: the partner's values */
	int n, col[MAXNORM];
	char val[MAXNORM][256];
} Norm;

/* row b is row a's partner: b has every Ci = Vi and agrees with a elsewhere */
static int partners(const Csv *c, int a, int b, const Norm *nm)
{
	for (int i = 0; i < nm->n; i++)
		if (strcmp(cell(c, b, nm->col[i]), nm->val[i])) return 0;
	for (int k = 0; k < c->ninputs; k++) {
		int skip = 0;
		for (int i = 0; i < nm->n; i++) skip |= k == nm->col[i];
		if (!skip && strcmp(cell(c, a, k), cell(c, b, k))) return 0;
	}
	return 1;
}

static int select_rows(const Csv *c, const PlotSpec *p, const YExpr *yi, Sel *s, PlotTable *t)
{
	int st = csv_col(c, "status"), wcol[64];
	Norm nm = {0};
	if (p->nwhere > 64) return err_set("too many --where"), RF_EINPUT;
	for (int i = 0; i < p->nwhere; i++) {
		char col[256];
		snprintf(col, sizeof col, "%.*s", (int)strcspn(p->where[i], "="), p->where[i]);
		if ((wcol[i] = need_col(c, col, "--where")) < 0) return RF_EINPUT;
	}
	for (const char *q = p->norm; q && *q; nm.n++) {
		size_t len = strcspn(q, ","), eq = strcspn(q, "=");
		char col[256];
		if (nm.n == MAXNORM || eq >= len)
			return err_set("--normalize-to '%s': at most %d COLUMN=VALUE, comma-separated",
			               p->norm, MAXNORM), RF_EINPUT;
		snprintf(col, sizeof col, "%.*s", (int)eq, q);
		snprintf(nm.val[nm.n], sizeof nm.val[nm.n], "%.*s", (int)(len - eq - 1), q + eq + 1);
		if ((nm.col[nm.n] = need_col(c, col, "--normalize-to")) < 0) return RF_EINPUT;
		q += len + (q[len] == ',');
	}
	s->row = xmalloc(((size_t)c->nrows + 1) * sizeof *s->row);
	s->y = xmalloc(((size_t)c->nrows + 1) * sizeof *s->y);
	for (int r = 0; r < c->nrows; r++) {
		double y, y0;
		if ((st >= 0 && strcmp(cell(c, r, st), "ok")) || !where_ok(c, r, p, wcol) ||
		    !y_value(c, r, yi, &y))
			continue;
		if (nm.n) {                  /* find the partner (quadratic; fine for sweeps) */
			int b = -1;
			for (int q = 0; q < c->nrows && b < 0; q++)
				if (partners(c, r, q, &nm) &&
				    (st < 0 || !strcmp(cell(c, q, st), "ok")))
					b = q;
			if (b < 0 || !y_value(c, b, yi, &y0) || y0 == 0) {
				t->dropped++;
				continue;
			}
			y /= y0;
		}
		s->row[s->n] = r;
		s->y[s->n++] = y;
	}
	return RF_OK;
}

static int cmp_num(const void *a, const void *b)
{
	double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);
	return (x > y) - (x < y);
}

/* geometric mean of the n values (arithmetic if any is <= 0, or asked) */
static double mean(const double *v, int n, int *arith, int want_arith)
{
	double lg = 0, sum = 0;
	int pos = 1, k = 0;
	for (int i = 0; i < n; i++) {
		if (isnan(v[i])) continue;
		pos &= v[i] > 0;
		lg += v[i] > 0 ? log(v[i]) : 0;
		sum += v[i];
		k++;
	}
	if (!k) return NAN;
	if (!pos && !want_arith) *arith = 1;
	return pos && !want_arith ? exp(lg / k) : sum / k;
}

int plot_table(const Csv *c, const PlotSpec *p, PlotTable *t)
{
	memset(t, 0, sizeof *t);
	YExpr ye;
	int xi = need_col(c, p->x, "--x"), yi = xi < 0 ? -1 : y_parse(c, p->y, &ye) ? -1 : 0;
	int si = yi < 0 || !p->series ? -1 : need_col(c, p->series, "--series");
	if (xi < 0 || yi < 0 || (p->series && si < 0)) return RF_EINPUT;
	Sel s = {0};
	if (select_rows(c, p, &ye, &s, t)) return RF_EINPUT;
	int numeric = s.n > 0;
	for (int i = 0; i < s.n; i++) {
		double v;
		add_name(&t->xs, &t->nx, cell(c, s.row[i], xi));
		add_name(&t->series, &t->ns, si >= 0 ? cell(c, s.row[i], si) : p->y);
		numeric &= num(cell(c, s.row[i], xi), &v);
	}
	t->lines = p->style == STYLE_LINES || (p->style == STYLE_AUTO && numeric && !p->geomean);
	if (t->lines && numeric) qsort(t->xs, t->nx, sizeof *t->xs, cmp_num);
	t->nrows = s.n;
	int cells = t->nx * t->ns, nx = t->nx + (p->geomean != 0);
	double **grp = xcalloc((size_t)cells + 1, sizeof *grp);
	int *ng = xcalloc((size_t)cells + 1, sizeof *ng);
	for (int i = 0; i < s.n; i++) {
		int k = find(t->xs, t->nx, cell(c, s.row[i], xi)) * t->ns +
		        find(t->series, t->ns, si >= 0 ? cell(c, s.row[i], si) : p->y);
		grp[k] = xrealloc(grp[k], (ng[k] + 1) * sizeof **grp);
		grp[k][ng[k]++] = s.y[i];
	}
	t->v = xmalloc(((size_t)nx * t->ns + 1) * sizeof *t->v);
	for (int k = 0; k < cells; k++)
		t->v[k] = mean(grp[k], ng[k], &t->arith, p->arith), free(grp[k]);
	if (p->geomean && t->ns) {
		double *col = xmalloc((size_t)t->nx * sizeof *col);
		for (int sj = 0; sj < t->ns; sj++) {
			for (int x = 0; x < t->nx; x++) col[x] = t->v[x * t->ns + sj];
			t->v[t->nx * t->ns + sj] = mean(col, t->nx, &t->arith, p->arith);
		}
		free(col);
		add_name(&t->xs, &t->nx, p->arith ? "mean" : "gmean");
		t->gmean = 1;
	}
	free(grp);
	free(ng);
	free(s.row);
	free(s.y);
	if (!s.n) {
		plot_table_free(t);
		err_set("no rows to plot (status ok%s%s, a number in '%s')",
		        p->nwhere ? ", the --where filters" : "",
		        p->norm ? ", a --normalize-to partner" : "", p->y);
		return RF_EINPUT;
	}
	return RF_OK;
}

void plot_table_free(PlotTable *t)
{
	for (int i = 0; i < t->nx; i++) free(t->xs[i]);
	for (int i = 0; i < t->ns; i++) free(t->series[i]);
	free(t->xs);
	free(t->series);
	free(t->v);
	memset(t, 0, sizeof *t);
}

double plot_value(const PlotTable *t, const char *x, int series)
{
	int i = find(t->xs, t->nx, x);
	return i < 0 || series < 0 || series >= t->ns ? NAN : t->v[i * t->ns + series];
}

void plot_table_print(FILE *f, const PlotTable *t, const PlotSpec *p, int md)
{
	TabCol *col = xcalloc((size_t)t->ns + 1, sizeof *col);
	const char **cell = xcalloc((size_t)t->ns + 1, sizeof *cell);
	char *text = xcalloc((size_t)t->ns + 1, 32);
	col[0] = (TabCol){"", 14, 1};
	for (int s = 0; s < t->ns; s++) col[s + 1] = (TabCol){"  ", 12, 0};
	cell[0] = p->x;
	for (int s = 0; s < t->ns; s++) cell[s + 1] = t->series[s];
	exp_table_row(f, col, cell, t->ns + 1, md);
	if (md) {
		fputs("|---", f);
		for (int s = 0; s < t->ns; s++) fputs("|---:", f);
		fputs("|\n", f);
	}
	for (int x = 0; x < t->nx; x++) {
		cell[0] = t->xs[x];
		for (int s = 0; s < t->ns; s++) {
			double v = t->v[x * t->ns + s];
			char *b = text + 32 * s;
			if (isnan(v)) snprintf(b, 32, "-");
			else if (fabs(v) >= 1e4 && fabs(v) < 1e15) snprintf(b, 32, "%.0f", v);
			else snprintf(b, 32, "%.4g", v);
			cell[s + 1] = b;
		}
		exp_table_row(f, col, cell, t->ns + 1, md);
	}
	free(text);
	free(cell);
	free(col);
}
