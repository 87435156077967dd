/*
 * gnuplot.c -- draw a PlotTable with gnuplot (plot.c says what and why).
 *
 * The whole script, data included as a datablock ($d << EOD), goes to
 * gnuplot's stdin, so nothing is left behind in temporary files.  Text
 * is written `noenhanced` (underscores in names like rf.mrf_latency stay
 * underscores) and in single quotes, where gnuplot's only escape is a
 * doubled quote.  Bars: clustered histogram, the gmean group set off by
 * a dotted line; lines: one line with points per series.  A normalized
 * plot gets a dashed reference line at 1.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "exp/exp.h"

static const char *gnuplot_cmd(void)
{
	const char *g = getenv("GNUPLOT");
	return g && *g ? g : "gnuplot";
}

int plot_gnuplot_found(void)
{
	const char *g = gnuplot_cmd();
	if (strchr(g, '/')) return access(g, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path) return 0;
	char *dirs = xstrdup(path), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char full[4096];
		snprintf(full, sizeof full, "%s/%s", *d ? d : ".", g);
		found = access(full, X_OK) == 0;
	}
	free(dirs);
	return found;
}

/* s as a gnuplot single-quoted string */
static void gq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'') fputc('\'', f);
		if (*s != '\n') fputc(*s, f);
	}
	fputc('\'', f);
}

/* s as a double-quoted datablock field (no quotes inside) */
static void dq(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

static void terminal(FILE *f, const PlotTable *t, const char *out)
{
	int svg = !strcmp(strrchr(out, '.'), ".svg");
	int w = t->lines ? 900 : 260 + t->nx * (t->ns * 10 + 16), h = 540;
	if (w < 800) w = 800;
	if (w > 1600) w = 1600;
	if (svg) {
		fprintf(f, "set terminal svg size %d,%d dynamic font 'sans,12' background '#ffffff'\n",
		        w, h);
	} else {
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		        "  set terminal pngcairo size %d,%d font 'sans,11' background '#ffffff'\n"
		        "} else {\n  set terminal png size %d,%d\n}\n", w, h, w, h);
	}
	/* Paul Tol's "bright" scheme: distinct for colour-blind readers and in grey */
	static const char *colours[] = {"#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE",
	                                "#AA3377", "#BBBBBB", "#222222"};
	for (int i = 0; i < 8; i++)
		fprintf(f, "set linetype %d lc rgb '%s' lw 1.5\n", i + 1, colours[i]);
	fputs("set linetype cycle 8\n", f);
	fputs("set termoption noenhanced\nset output ", f);
	gq(f, out);
	fputc('\n', f);
}

static void labels(FILE *f, const PlotTable *t, const PlotSpec *p)
{
	char yl[512];
	if (p->ylabel) snprintf(yl, sizeof yl, "%s", p->ylabel);
	else if (p->norm) snprintf(yl, sizeof yl, "%s (normalized to %s)", p->y, p->norm);
	else snprintf(yl, sizeof yl, "%s", p->y);
	if (p->title) fputs("set title ", f), gq(f, p->title), fputc('\n', f);
	fputs("set xlabel ", f);
	gq(f, p->xlabel ? p->xlabel : p->x);
	fputs("\nset ylabel ", f);
	gq(f, yl);
	fputs("\nset key outside right top", f);
	if (p->series) fputs(" title ", f), gq(f, p->series);
	fputs("\nset grid ytics\nset border 3\nset tics nomirror\n", f);
	double lo = INFINITY;
	for (int i = 0; i < t->nx * t->ns; i++)
		if (!isnan(t->v[i]) && t->v[i] < lo) lo = t->v[i];
	if (lo >= 0) fputs("set yrange [0:*]\n", f);
	if (p->norm)
		fputs("set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'\n",
		      f);
}

static void data(FILE *f, const PlotTable *t)
{
	fputs("$d << EOD\n", f);
	dq(f, "x");
	for (int s = 0; s < t->ns; s++) fputc(' ', f), dq(f, t->series[s]);
	fputc('\n', f);
	for (int x = 0; x < t->nx; x++) {
		char *end;
		strtod(t->xs[x], &end);
		if (t->lines && *t->xs[x] && !*end) fputs(t->xs[x], f);   /* a number: unquoted */
		else dq(f, t->xs[x]);
		for (int s = 0; s < t->ns; s++) {
			double v = t->v[x * t->ns + s];
			if (isnan(v)) fputs(" ?", f);
			else fprintf(f, " %.10g", v);
		}
		fputc('\n', f);
	}
	fputs("EOD\nset datafile missing '?'\n", f);
}

static void bars(FILE *f, const PlotTable *t)
{
	size_t longest = 0;
	for (int x = 0; x < t->nx; x++)
		if (strlen(t->xs[x]) > longest) longest = strlen(t->xs[x]);
	fprintf(f, "set xrange [-0.6:%g]\n", t->nx - 0.4);
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set style fill solid 0.85 border -1\nset boxwidth 0.9\nset xtics scale 0\n", f);
	if (t->nx > 8 || longest * t->nx > 60) fputs("set xtics rotate by -35 left\n", f);
	if (t->gmean)
		fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb '#777777'\n",
		        t->nx - 1.5, t->nx - 1.5);
	fprintf(f, "plot for [i=2:%d] $d using i:xtic(1) title columnheader(i)\n", t->ns + 1);
}

static void lines(FILE *f, const PlotTable *t)
{
	int numeric = 1;
	for (int x = 0; x < t->nx; x++) {
		char *end;
		strtod(t->xs[x], &end);
		numeric &= *end == 0;
	}
	fputs("set offsets graph 0.03, graph 0.03, 0, 0\n", f);
	if (numeric)                         /* ticks at the data's x, if few */
		fprintf(f, "plot for [i=2:%d] $d using 1:i%s with linespoints lw 2 pt 7 ps 1.2 "
		        "title columnheader(i)\n", t->ns + 1, t->nx <= 16 ? ":xtic(1)" : "");
	else
		fprintf(f, "plot for [i=2:%d] $d using 0:i:xtic(1) with linespoints lw 2 pt 7 "
		        "ps 1.2 title columnheader(i)\n", t->ns + 1);
}

int plot_draw(const PlotTable *t, const PlotSpec *p)
{
	if (!plot_gnuplot_found()) {
		err_set("cannot plot: '%s' not found (install gnuplot: apt-get install gnuplot-nox)",
		        gnuplot_cmd());
		return RF_ERUNTIME;
	}
	/* gnuplot reports an unwritable output in several lines of its own and carries on;
	   find out here, as an input error naming the file */
	FILE *probe = fopen(p->out, "w");
	if (!probe) {
		err_set("cannot write -o '%s': %s", p->out, strerror(errno));
		return RF_EINPUT;
	}
	fclose(probe);
	unlink(p->out);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);  /* a gnuplot that dies early */
	FILE *f = popen(gnuplot_cmd(), "w");
	if (!f) {
		signal(SIGPIPE, old);
		err_set("cannot run %s", gnuplot_cmd());
		return RF_ERUNTIME;
	}
	terminal(f, t, p->out);
	labels(f, t, p);
	data(f, t);
	if (t->lines) lines(f, t);
	else bars(f, t);
	fputs("set output\n", f);
	int st = pclose(f);
	signal(SIGPIPE, old);
	struct stat sb;
	if (st != 0 || stat(p->out, &sb) || sb.st_size == 0) {
		err_set("gnuplot failed to write %s (status %d)", p->out, st);
		return RF_ERUNTIME;
	}
	return RF_OK;
}
