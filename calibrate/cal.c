/*
 * cal.c -- what the calibration benchmarks share (cal.h): their table,
 * the device's description, the result records, the reference table
 * (refs.def) and the JSON document both rfsim calibrate and calrun write.
 *
 * Written against the driver API subset and the C library only, like the
 * benchmarks, so it builds into rfsim and into calrun alike; hence its own
 * small JSON writer rather than src/base/json.c.
 */
#include <math.h>
#include <string.h>

#include "cal.h"

const Calib calibs[] = {
#define X(name, desc) { #name, desc, cal_ptx_##name, cal_##name##_run },
#include "calibrate.def"
#undef X
};

const int ncalibs = (int)(sizeof calibs / sizeof calibs[0]);

const Calib *calib_find(const char *name)
{
	for (int i = 0; i < ncalibs; i++)
		if (!strcmp(calibs[i].name, name))
			return &calibs[i];
	return NULL;
}

static const char *const size_names[] = { "small", "default", "large" };

const char *cal_size_name(CalSize s)
{
	return (unsigned)s < 3 ? size_names[s] : "?";
}

int cal_size_parse(const char *s, CalSize *out)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, size_names[i])) {
			*out = (CalSize)i;
			return 0;
		}
	return -1;
}

/* ---- the device ---- */

static CUresult attr(int *v, CUdevice_attribute a, CUdevice dev)
{
	return cuDeviceGetAttribute(v, a, dev);
}

CUresult cal_dev_query(CUdevice dev, CalDev *d)
{
	int clock_khz, mem_khz, bus, l2, major, minor;
	CUresult r;

	memset(d, 0, sizeof *d);
	if ((r = cuDeviceGetName(d->name, (int)sizeof d->name, dev)) ||
	    (r = attr(&d->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)) ||
	    (r = attr(&clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev)) ||
	    (r = attr(&mem_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev)) ||
	    (r = attr(&bus, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev)) ||
	    (r = attr(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev)) ||
	    (r = attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) ||
	    (r = attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)) ||
	    (r = attr(&d->max_threads_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev)) ||
	    (r = attr(&d->max_ctas_sm, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev)) ||
	    (r = attr(&d->max_threads_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev)))
		return r;
	int smem;
	if ((r = attr(&smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev)) ||
	    (r = attr(&d->l1_global, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, dev)))
		return r;
	d->smem_sm = smem;
	d->clock_mhz = clock_khz / 1000.0;
	/* double data rate: two transfers per memory clock, bus width in bits */
	d->peak_gbs = 2.0 * mem_khz * 1e3 * (bus / 8.0) / 1e9;
	d->l2_bytes = l2;
	d->cc = major * 10 + minor;
	return CUDA_SUCCESS;
}

/* ---- results ---- */

CalMetric *cal_metric(CalOut *o, const char *name, double value, const char *unit,
                      const char *what)
{
	if (o->nm >= CAL_MAX_METRICS)
		return NULL;
	CalMetric *m = &o->m[o->nm++];
	snprintf(m->name, sizeof m->name, "%s", name);
	m->value = value;
	m->sim = NAN;
	m->unit = unit;
	m->what = what;
	return m;
}

CalCurve *cal_curve(CalOut *o, const char *plot, const char *series, const char *xlabel,
                    const char *ylabel)
{
	if (o->nc >= CAL_MAX_CURVES)
		return NULL;
	CalCurve *c = &o->c[o->nc++];
	memset(c, 0, sizeof *c);
	snprintf(c->plot, sizeof c->plot, "%s", plot);
	snprintf(c->series, sizeof c->series, "%s", series);
	c->xlabel = xlabel;
	c->ylabel = ylabel;
	return c;
}

void cal_point(CalCurve *c, double x, double y)
{
	if (c && c->n < CAL_MAX_POINTS) {
		c->x[c->n] = x;
		c->y[c->n] = y;
		c->n++;
	}
}

const CalMetric *cal_get(const CalOut *o, const char *name)
{
	for (int i = 0; i < o->nm; i++)
		if (!strcmp(o->m[i].name, name))
			return &o->m[i];
	return NULL;
}

double cal_stat(const CalEnv *env, const char *name)
{
	return env->kernel_stat ? env->kernel_stat(env->ctx, name) : NAN;
}

/* ---- references ---- */

const CalRef cal_refs[] = {
#define R(config, metric, value, source) { config, metric, value, 0, source },
#define RT(config, metric, value, tol, source) { config, metric, value, tol, source },
#include "refs.def"
#undef RT
#undef R
};

const int ncal_refs = (int)(sizeof cal_refs / sizeof cal_refs[0]);

const CalRef *cal_ref(const char *config, const char *metric)
{
	for (int i = 0; config && i < ncal_refs; i++)
		if (!strcmp(cal_refs[i].config, config) && !strcmp(cal_refs[i].metric, metric))
			return &cal_refs[i];
	return NULL;
}

double cal_deviation(double value, double ref)
{
	return 100.0 * (value - ref) / ref;
}

void cal_bytes_label(double x, char *buf, size_t n)
{
	static const char units[] = "KMGT";
	double v = x;
	int u = -1;
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%g", x);
	else
		snprintf(buf, n, "%g%c", v, units[u]);
}

/* ---- JSON ---- */

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
		else if (c < 0x20) fprintf(f, "\\u%04x", c);
		else fputc(c, f);
	}
	fputc('"', f);
}

/* a number; NaN and infinities, which JSON cannot spell, as null */
static void jnum(FILE *f, double v)
{
	if (isnan(v) || isinf(v)) fputs("null", f);
	else fprintf(f, "%.10g", v);
}

static void json_metric(FILE *f, const CalMetric *m, CalRefFn ref, void *ctx, int last)
{
	fputs("        { \"name\": ", f);
	jstr(f, m->name);
	fputs(", \"value\": ", f);
	jnum(f, m->value);
	fputs(", \"sim\": ", f);
	jnum(f, m->sim);
	fputs(", \"unit\": ", f);
	jstr(f, m->unit);
	fputs(",\n          \"what\": ", f);
	jstr(f, m->what);
	const CalRef *r = ref ? ref(m->name, ctx) : NULL;
	if (r) {
		fputs(",\n          \"reference\": ", f);
		jnum(f, r->value);
		fputs(", \"deviation_pct\": ", f);
		jnum(f, cal_deviation(m->value, r->value));
		if (r->tol > 0) {
			fputs(", \"tolerance_pct\": ", f);
			jnum(f, r->tol);
		}
		fputs(", \"source\": ", f);
		jstr(f, r->source);
	} else if (ref) {
		fputs(", \"reference\": null", f);
	}
	fprintf(f, " }%s\n", last ? "" : ",");
}

static void json_curve(FILE *f, const CalCurve *c, int last)
{
	fputs("        { \"plot\": ", f);
	jstr(f, c->plot);
	fputs(", \"series\": ", f);
	jstr(f, c->series);
	fputs(", \"x\": ", f);
	jstr(f, c->xlabel);
	fputs(", \"y\": ", f);
	jstr(f, c->ylabel);
	fputs(",\n          \"points\": [", f);
	for (int i = 0; i < c->n; i++) {
		fputs(i ? ", [" : "[", f);
		jnum(f, c->x[i]);
		fputs(", ", f);
		jnum(f, c->y[i]);
		fputc(']', f);
	}
	fprintf(f, "] }%s\n", last ? "" : ",");
}

void cal_json(FILE *f, const char *producer, const char *config, CalSize size,
              const CalDev *d, const CalResult *r, int n, CalRefFn ref, void *ctx)
{
	static const char *const checks[] = { "pass", "fail", "error" };
	fputs("{\n  \"format\": \"rfsim-calibrate/1\",\n  \"producer\": ", f);
	jstr(f, producer);
	fputs(",\n  \"config\": ", f);
	if (config) jstr(f, config);
	else fputs("null", f);
	fputs(",\n  \"size\": ", f);
	jstr(f, cal_size_name(size));
	fputs(",\n  \"device\": { \"name\": ", f);
	jstr(f, d->name);
	fprintf(f, ", \"sms\": %d, \"cc\": %d, \"clock_mhz\": ", d->sms, d->cc);
	jnum(f, d->clock_mhz);
	fputs(", \"peak_gbs\": ", f);
	jnum(f, d->peak_gbs);
	fprintf(f, ", \"l2_bytes\": %lld, \"l1_global\": %s,\n             \"max_threads_sm\": %d, "
	        "\"max_ctas_sm\": %d, \"smem_sm\": %lld },\n  \"benchmarks\": [\n",
	        (long long)d->l2_bytes, d->l1_global ? "true" : "false", d->max_threads_sm,
	        d->max_ctas_sm, (long long)d->smem_sm);
	for (int i = 0; i < n; i++) {
		const CalOut *o = &r[i].out;
		fputs("    { \"name\": ", f);
		jstr(f, r[i].b->name);
		fputs(", \"check\": ", f);
		jstr(f, checks[r[i].rc < 0 || r[i].rc > 2 ? 2 : r[i].rc]);
		fputs(", \"seconds\": ", f);
		jnum(f, r[i].seconds);
		fputs(",\n      \"message\": ", f);
		jstr(f, r[i].msg);
		fputs(",\n      \"metrics\": [\n", f);
		for (int k = 0; k < o->nm; k++)
			json_metric(f, &o->m[k], ref, ctx, k == o->nm - 1);
		fputs("      ],\n      \"curves\": [\n", f);
		for (int k = 0; k < o->nc; k++)
			json_curve(f, &o->c[k], k == o->nc - 1);
		fprintf(f, "      ] }%s\n", i == n - 1 ? "" : ",");
	}
	fputs("  ]\n}\n", f);
}
