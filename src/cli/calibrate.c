/*
 * calibrate.c -- `rfsim calibrate`: the microbenchmarks of calibrate/ on
 * the configured GPU, each measured value beside its reference.
 *
 * The benchmarks are CUDA programs (calibrate/cal.h) that run unchanged
 * on a real GPU (calrun); here their host code runs against rfsim's
 * driver API, as `rfsim run WORKLOAD` runs a workload's (run_workload.c),
 * with a hook that gives the host the cycles rfsim counted for the launch
 * it made last (api_kernel_log).  Each metric is printed with the
 * config's reference from calibrate/refs.def (or from a real GPU's JSON,
 * --refs) and its deviation; --check PCT turns deviations beyond PCT
 * percent into exit status 1, once the model is meant to agree.
 * --json writes the document calibrate/README.md describes, --plot draws
 * each plot's curves with src/exp's gnuplot code, and --from-device turns
 * a real GPU's JSON into refs.def rows.
 *
 * Exit status: 0; 1 a benchmark's own check failed, a CUDA error, or a
 * reference missed by more than --check's PCT; 2 a usage or input error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "api/api.h"
#include "base/base.h"
#include "cli/cli.h"
#include "exp/exp.h"
#include "../../calibrate/cal.h"

typedef struct COpts {
	Opts cfg;                /* -c, -s */
	CalSize size;            /* --size */
	const char *json;        /* --json FILE ('-': stdout) */
	const char *plot;        /* --plot DIR */
	const char *refs;        /* --refs FILE.json: a device's values as references */
	const char *from;        /* --from-device FILE.json: print refs.def rows */
	double check;            /* --check PCT; < 0: none */
	int list;                /* --list */
	const char **names;      /* benchmarks to run (none: all) */
	int nnames;
} COpts;

/* the references a run is compared with: refs.def's rows for the config,
 * or a device JSON's values (--refs) */
typedef struct RefSet {
	const char *config;
	CalRef *rows;            /* --refs: its metrics; else NULL */
	int nrows;
	char source[300];        /* --refs: "FILE: DEVICE, calrun --size S" */
} RefSet;

static void help(FILE *f)
{
	fputs("usage: rfsim calibrate [NAME]... [-c CONFIG] [-s KEY=VALUE]... [--size S]\n"
	      "                       [--json FILE] [--plot DIR] [--check PCT] [--refs FILE.json]\n"
	      "       rfsim calibrate --from-device FILE.json [-c CONFIG]\n"
	      "       rfsim calibrate --list [-c CONFIG]\n\n"
	      "Runs the calibration microbenchmarks (calibrate/: CUDA programs that also run\n"
	      "on a real GPU) on the configured GPU and prints each measured value beside the\n"
	      "config's reference (calibrate/refs.def) and its source, or \"no reference\".\n\n"
	      "options:\n"
	      "  -c, --config NAME|FILE  configs/NAME.cfg or a config file [fermi-gtx480]\n"
	      "  -s, --set KEY=VALUE     set a config key (repeatable)\n"
	      "      --size S            small (seconds) | default (< 2 min) | large [default]\n"
	      "      --json FILE         write the results as JSON ('-': stdout)\n"
	      "      --plot DIR          draw DIR/PLOT.png per plot (gnuplot): latency, bandwidth...\n"
	      "      --check PCT         exit 1 if a reference-backed value is off by more than\n"
	      "                          PCT percent\n"
	      "      --refs FILE.json    compare with a real GPU's calrun output instead\n"
	      "      --from-device FILE.json\n"
	      "                          print FILE's values as refs.def rows for -c's config\n"
	      "      --list              the benchmarks, and the references of -c's config\n\n"
	      "benchmarks:\n", f);
	for (int i = 0; i < ncalibs; i++)
		fprintf(f, "  %-10s %s\n", calibs[i].name, calibs[i].desc);
	fputs("\nExit status: 0 ok; 1 a benchmark's check failed or --check missed; 2 usage.\n", f);
}

static int need(int argc, char **argv, int *i, const char **v)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	if (a[1] == '-' && eq) {
		*v = eq + 1;
		return RF_OK;
	}
	if (*i + 1 >= argc) return usage_error("option %s needs a value", a);
	*v = argv[++*i];
	return RF_OK;
}

/* is argv word a the long option lng, alone or as lng=VALUE */
static int is_opt(const char *a, const char *shrt, const char *lng)
{
	size_t n = strlen(lng);
	return (shrt && !strcmp(a, shrt)) || !strcmp(a, lng) || (!strncmp(a, lng, n) && a[n] == '=');
}

static int parse_value(const char *a, const char *v, COpts *o)
{
	if (is_opt(a, "-c", "--config")) o->cfg.config = v;
	else if (is_opt(a, "-s", "--set")) {
		o->cfg.sets = xrealloc(o->cfg.sets, sizeof(char *) * (size_t)(o->cfg.nsets + 1));
		o->cfg.sets[o->cfg.nsets++] = v;
	} else if (is_opt(a, NULL, "--size")) {
		if (cal_size_parse(v, &o->size))
			return usage_error("bad --size '%s' (expected small, default or large)", v);
	} else if (is_opt(a, NULL, "--json")) o->json = v;
	else if (is_opt(a, NULL, "--plot")) o->plot = v;
	else if (is_opt(a, NULL, "--refs")) o->refs = v;
	else if (is_opt(a, NULL, "--from-device")) o->from = v;
	else {
		char *end;
		o->check = strtod(v, &end);
		if (!*v || *end || !(o->check >= 0) || isinf(o->check))
			return usage_error("bad --check '%s' (a percentage >= 0)", v);
	}
	return RF_OK;
}

static int parse(int argc, char **argv, COpts *o, int *helped)
{
	static const char *const valued[][2] = {
		{"-c", "--config"}, {"-s", "--set"}, {NULL, "--size"}, {NULL, "--json"},
		{NULL, "--plot"}, {NULL, "--refs"}, {NULL, "--from-device"}, {NULL, "--check"},
	};
	memset(o, 0, sizeof *o);
	o->size = CAL_DEFAULT;
	o->check = -1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*helped = 1;
			return RF_OK;
		}
		if (!strcmp(a, "--list")) {
			o->list = 1;
			continue;
		}
		int k = 0, nk = (int)(sizeof valued / sizeof valued[0]);
		while (k < nk && !is_opt(a, valued[k][0], valued[k][1]))
			k++;
		if (k < nk) {
			int rc = need(argc, argv, &i, &v);
			if (rc || (rc = parse_value(a, v, o))) return rc;
			continue;
		}
		if (a[0] == '-' && a[1]) return usage_error("unknown option '%s'", a);
		if (!calib_find(a)) {
			fprintf(stderr, "rfsim: unknown benchmark '%s'; the benchmarks:\n", a);
			for (int b = 0; b < ncalibs; b++) fprintf(stderr, "  %s\n", calibs[b].name);
			return RF_EINPUT;
		}
		o->names = xrealloc(o->names, sizeof(char *) * (size_t)(o->nnames + 1));
		o->names[o->nnames++] = a;
	}
	if (o->from && (o->nnames || o->json || o->plot || o->refs || o->check >= 0))
		return usage_error("--from-device only converts a file: no benchmarks or other options");
	return RF_OK;
}

/* ---- references ------------------------------------------------------- */

static const CalRef *ref_lookup(const char *metric, void *ctx)
{
	const RefSet *s = ctx;
	if (!s->rows) return cal_ref(s->config, metric);
	for (int i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].metric, metric)) return &s->rows[i];
	return NULL;
}

/* a calrun (or rfsim calibrate --json) document, parsed; NULL with a message */
static cJSON *load_doc(const char *path)
{
	char *text = read_file(path, FILE_STATS, NULL);
	if (!text) {
		fail(RF_EINPUT, "%s", err_msg());
		return NULL;
	}
	cJSON *doc = cJSON_Parse(text);
	free(text);
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
	if (!doc || !cJSON_IsString(fmt) || strcmp(fmt->valuestring, "rfsim-calibrate/1")) {
		fail(RF_EINPUT, "%s: not a calibration result (format rfsim-calibrate/1)", path);
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

/* call fn for every metric of doc that has a number */
static void each_metric(const cJSON *doc, void (*fn)(const char *, double, void *), void *ctx)
{
	const cJSON *b, *m;
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(doc, "benchmarks"))
		cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "metrics")) {
			const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "name");
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "value");
			if (cJSON_IsString(n) && cJSON_IsNumber(v)) fn(n->valuestring, v->valuedouble, ctx);
		}
}

static const char *doc_str(const cJSON *o, const char *key, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : dflt;
}

static void add_row(const char *name, double v, void *ctx)
{
	RefSet *s = ctx;
	s->rows = xrealloc(s->rows, sizeof *s->rows * (size_t)(s->nrows + 1));
	s->rows[s->nrows++] = (CalRef){s->config, xstrdup(name), v, 0, s->source};
}

static int load_refs(const char *path, RefSet *s)
{
	cJSON *doc = load_doc(path);
	if (!doc) return RF_EINPUT;
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	snprintf(s->source, sizeof s->source, "%s: %s (%s, --size %s)", path,
	         doc_str(dev, "name", "?"), doc_str(doc, "producer", "?"), doc_str(doc, "size", "?"));
	each_metric(doc, add_row, s);
	cJSON_Delete(doc);
	return RF_OK;
}

static void print_row(const char *name, double v, void *ctx)
{
	const char **c = ctx;
	printf("R(\"%s\", \"%s\", %.4g,\n  \"%s\")\n", c[0], name, v, c[1]);
}

/* --from-device: FILE's values as refs.def rows for config */
static int from_device(const char *path, const char *config)
{
	cJSON *doc = load_doc(path);
	if (!doc) return RF_EINPUT;
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
	char source[300];
	snprintf(source, sizeof source, "measured on %s by %s, --size %s (%s)",
	         doc_str(dev, "name", "?"), doc_str(doc, "producer", "?"),
	         doc_str(doc, "size", "?"), path);
	for (char *p = source; *p; p++)
		if (*p == '"' || *p == '\\') *p = '\'';
	const char *ctx[2] = {config, source};
	printf("/* %s: %s */\n", config, source);
	each_metric(doc, print_row, (void *)ctx);
	cJSON_Delete(doc);
	return RF_OK;
}

static void list(const char *config)
{
	printf("benchmarks:\n");
	for (int i = 0; i < ncalibs; i++) printf("  %-10s %s\n", calibs[i].name, calibs[i].desc);
	printf("references of %s (calibrate/refs.def):\n", config);
	for (int i = 0; i < ncal_refs; i++)
		if (!strcmp(cal_refs[i].config, config))
			printf("  %-24s %10.4g  %s\n", cal_refs[i].metric, cal_refs[i].value,
			       cal_refs[i].source);
}

/* ---- running --------------------------------------------------------------- */

/* statistic `name` of the kernel launched last (a counter or derived figure of
 * tstats.def), or NaN */
static double last_kernel_stat(void *ctx, const char *name)
{
	int n;
	const KernelStats *ks = api_kernel_log(&n);
	if (!n || !ks[n - 1].timed) return NAN;
	TStats t = ks[n - 1].ts;
	const uint64_t *c = tstats_counter(&t, name);
	int d = tstats_derived_find(name);
	return c ? (double)*c : d >= 0 ? tstats_derived(&t, ks[n - 1].warp_insts, d) : NAN;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run_one(const Calib *b, CalSize size, const Config *cfg, CalResult *r)
{
	CalEnv env = {size, b->ptx, last_kernel_stat, NULL};
	memset(r, 0, sizeof *r);
	r->b = b;
	api_set_config(cfg);
	api_kernel_log_clear();
	err_clear();
	double t0 = now_s();
	r->rc = b->run(&env, &r->out, r->msg, sizeof r->msg);
	r->seconds = now_s() - t0;
	if (r->rc == 2 && err_msg()[0] && !strstr(r->msg, err_msg()))
		snprintf(r->msg + strlen(r->msg), sizeof r->msg - strlen(r->msg), ": %s", err_msg());
	api_kernel_log_clear();
}

static int device(const Config *cfg, CalDev *d)
{
	CUdevice dev;
	api_set_config(cfg);
	if (cuInit(0) || cuDeviceGet(&dev, 0) || cal_dev_query(dev, d))
		return fail(RF_ERUNTIME, "cannot describe the simulated device");
	return RF_OK;
}

/* ---- printing --------------------------------------------------------------- */

static void num(char *buf, size_t n, double v)
{
	if (isnan(v)) snprintf(buf, n, "-");
	else if (fabs(v) >= 1e5) snprintf(buf, n, "%.4g", v);
	else snprintf(buf, n, "%.*f", fabs(v) < 10 ? 3 : 1, v);
}

static void print_curve(FILE *f, const CalCurve *c)
{
	fprintf(f, "  %s/%s: %s -> %s\n   ", c->plot, c->series, c->xlabel, c->ylabel);
	for (int i = 0; i < c->n; i++) {
		char x[32], y[32];
		if (c->log2x) cal_bytes_label(c->x[i], x, sizeof x);
		else snprintf(x, sizeof x, "%g", c->x[i]);
		num(y, sizeof y, c->y[i]);
		fprintf(f, " %s:%s%s", x, y, (i % 8 == 7 && i + 1 < c->n) ? "\n   " : "");
	}
	fputc('\n', f);
}

/* one benchmark's table; counts reference-backed metrics and those off by more than pct */
static void print_result(FILE *f, const CalResult *r, const RefSet *refs, double pct, int *nref,
                         int *noff)
{
	static const char *const verdict[] = {"PASS", "FAIL", "ERROR"};
	fprintf(f, "\n%-10s %s  %.1f s  %s\n", r->b->name, verdict[r->rc], r->seconds, r->msg);
	if (r->out.nm)
		fprintf(f, "  %-22s %10s %10s %-9s %10s %9s  %s\n", "metric", "kernel", "sim cycles",
		       "unit", "reference", "deviation", "source");
	for (int i = 0; i < r->out.nm; i++) {
		const CalMetric *m = &r->out.m[i];
		const CalRef *ref = ref_lookup(m->name, (void *)refs);
		char v[32], s[32], rv[32], dev[32] = "";
		num(v, sizeof v, m->value);
		num(s, sizeof s, m->sim);
		fprintf(f, "  %-22s %10s %10s %-9s", m->name, v, s, m->unit);
		if (!ref) {
			fprintf(f, " %10s\n", "no reference");
			continue;
		}
		double d = cal_deviation(m->value, ref->value);
		double lim = ref->tol > pct ? ref->tol : pct;  /* a row may allow more than --check */
		int off = !(fabs(d) <= lim);
		num(rv, sizeof rv, ref->value);
		snprintf(dev, sizeof dev, "%+.1f%%%s", d, pct >= 0 && off ? "!" : "");
		fprintf(f, " %10s %9s  %s\n", rv, dev, ref->source);
		(*nref)++;
		*noff += pct >= 0 && off;
	}
	for (int i = 0; i < r->out.nc; i++) print_curve(f, &r->out.c[i]);
}

/* ---- plots ---------------------------------------------------------------- */

/* x values of plot's curves, in first-seen order */
static int plot_xs(const CalOut *o, const char *plot, double *xs)
{
	int n = 0;
	for (int i = 0; i < o->nc; i++)
		for (int k = 0; strcmp(o->c[i].plot, plot) == 0 && k < o->c[i].n; k++) {
			int j = 0;
			while (j < n && xs[j] != o->c[i].x[k]) j++;
			if (j == n && n < CAL_MAX_POINTS * CAL_MAX_CURVES) xs[n++] = o->c[i].x[k];
		}
	return n;
}

static int draw(FILE *txt, const CalOut *o, const char *plot, const char *dir,
                const char *config)
{
	double xs[CAL_MAX_POINTS * CAL_MAX_CURVES];
	PlotTable t = {0};
	const CalCurve *first = NULL;
	t.nx = plot_xs(o, plot, xs);
	t.xs = xcalloc((size_t)t.nx, sizeof *t.xs);
	t.series = xcalloc(CAL_MAX_CURVES, sizeof *t.series);
	t.v = xcalloc((size_t)t.nx * CAL_MAX_CURVES, sizeof *t.v);
	for (int i = 0; i < t.nx * CAL_MAX_CURVES; i++) t.v[i] = NAN;
	for (int i = 0; i < o->nc; i++) {
		const CalCurve *c = &o->c[i];
		if (strcmp(c->plot, plot)) continue;
		if (!first) first = c;
		t.series[t.ns] = xstrdup(c->series);
		for (int k = 0; k < c->n; k++)
			for (int j = 0; j < t.nx; j++)
				if (xs[j] == c->x[k]) t.v[j * CAL_MAX_CURVES + t.ns] = c->y[k];
		t.ns++;
	}
	/* PlotTable's v is nx x ns: pack the rows */
	for (int j = 0; j < t.nx; j++) {
		char buf[32];
		if (first->log2x) cal_bytes_label(xs[j], buf, sizeof buf);
		else snprintf(buf, sizeof buf, "%g", xs[j]);
		t.xs[j] = xstrdup(buf);
		for (int s = 0; s < t.ns; s++) t.v[j * t.ns + s] = t.v[j * CAL_MAX_CURVES + s];
	}
	t.lines = 1;
	char out[4096], title[256];
	snprintf(out, sizeof out, "%s/%s.png", dir, plot);
	snprintf(title, sizeof title, "rfsim calibrate: %s, %s", plot, config);
	PlotSpec p = {.x = first->xlabel, .y = first->ylabel, .series = "series",
	              .title = title, .out = out};
	int rc = plot_draw(&t, &p);
	if (rc) fail(rc, "%s", err_msg());
	else fprintf(txt, "plot %s\n", out);
	plot_table_free(&t);
	return rc;
}

static int draw_all(FILE *txt, const CalResult *r, int n, const char *dir, const char *config)
{
	int rc = RF_OK;
	if (exp_mkdirs(dir)) return fail(RF_EINPUT, "--plot: cannot create '%s'", dir);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < r[i].out.nc; k++) {
			int seen = 0;
			for (int j = 0; j < k; j++) seen |= !strcmp(r[i].out.c[j].plot, r[i].out.c[k].plot);
			if (!seen && r[i].out.c[k].n) {
				int d = draw(txt, &r[i].out, r[i].out.c[k].plot, dir, config);
				if (d && !rc) rc = d;
			}
		}
	return rc;
}

/* ---- the command -------------------------------------------------------------- */

/* --json's file, opened before anything runs so that a bad path costs nothing */
static FILE *open_json(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f) fail(RF_EINPUT, "--json: cannot write '%s'", path);
	return f;
}

static int write_json(FILE *f, const char *path, const Config *cfg, CalSize size,
                      const CalDev *d, const CalResult *r, int n, RefSet *refs)
{
	cal_json(f, "rfsim " RFSIM_VERSION, cfg->name, size, d, r, n, ref_lookup, refs);
	int bad = ferror(f);
	if (f != stdout) bad |= fclose(f);
	return bad ? fail(RF_ERUNTIME, "--json: error writing '%s'", path) : RF_OK;
}

static int run_all(const COpts *o, const Config *cfg, RefSet *refs)
{
	CalDev d;
	int rc, worst = 0, nref = 0, noff = 0, n = 0;
	FILE *jf = NULL;
	if ((rc = device(cfg, &d))) return rc;
	if (o->json && !(jf = open_json(o->json))) return RF_EINPUT;
	FILE *txt = jf == stdout ? stderr : stdout;   /* --json -: the table on stderr */
	fprintf(txt, "rfsim calibrate: %s -- %d SMs, %.0f MHz, DRAM peak %.1f GB/s, L2 %lld KB; "
	       "--size %s\n", cfg->name, d.sms, d.clock_mhz, d.peak_gbs,
	       (long long)(d.l2_bytes >> 10), cal_size_name(o->size));
	fprintf(txt, "references: %s\n", refs->rows ? refs->source : "calibrate/refs.def");
	CalResult *r = xcalloc((size_t)ncalibs, sizeof *r);
	for (int i = 0; i < ncalibs; i++) {
		int want = !o->nnames;
		for (int k = 0; k < o->nnames; k++) want |= !strcmp(o->names[k], calibs[i].name);
		if (!want) continue;
		run_one(&calibs[i], o->size, cfg, &r[n]);
		print_result(txt, &r[n], refs, o->check, &nref, &noff);
		fflush(txt);
		if (r[n].rc) worst = RF_ERUNTIME;
		n++;
	}
	if (o->check >= 0) {
		fprintf(txt, "\ncheck +-%g%%: %d of %d reference values within%s\n", o->check,
		       nref - noff, nref, noff ? " (off: marked !)" : "");
		if (noff) worst = RF_ERUNTIME;
	}
	if (jf && (rc = write_json(jf, o->json, cfg, o->size, &d, r, n, refs))) worst = rc;
	if (o->plot && (rc = draw_all(txt, r, n, o->plot, cfg->name)) && !worst) worst = rc;
	free(r);
	return worst;
}

int cmd_calibrate(int argc, char **argv)
{
	COpts o;
	int helped = 0, rc;
	RefSet refs = {0};
	Config cfg;
	if ((rc = parse(argc, argv, &o, &helped)) || helped) {
		if (helped) help(stdout);
		goto out;
	}
	if ((rc = args_config(&o.cfg, &cfg))) goto out;
	refs.config = cfg.name;
	if (o.list) list(cfg.name);
	else if (o.from) rc = from_device(o.from, cfg.name);
	else if (!o.refs || !(rc = load_refs(o.refs, &refs))) rc = run_all(&o, &cfg, &refs);
out:
	for (int i = 0; i < refs.nrows; i++) free((char *)refs.rows[i].metric);
	free(refs.rows);
	free(o.cfg.sets);
	free(o.names);
	return rc;
}
