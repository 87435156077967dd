/*
 * spec.c -- sweep files, and the points they stand for.
 *
 * A sweep file is a few declarative lines (README, "Sweeps"):
 *
 *   # IPC versus main register file latency
 *   name      = mrf-latency              (default: the file's base name)
 *   workloads = saxpy, sgemm             (or: all)
 *   configs   = maxwell-ltrf             (or: all; default fermi-gtx480)
 *   size      = small                    (a list is an axis too)
 *   set  sim.max_warp_insts = 100M       (every point)
 *   axis rf.model = baseline, ideal      (one value per point)
 *   axis rf.mrf_latency = 1..8           (A..B or A..B:STEP, integers)
 *   axis rf.banks *= 1, 2, 4             (relative: times the config's value)
 *   variant Shared-OWF = rf.model=regshare regshare.owf=1
 *                                        (one point per variant line, column
 *                                        "variant": several keys at once)
 *
 * `#` starts a comment; a repeated `name`, `workloads`, `configs` or
 * `size` line replaces the earlier one (so reproduce can append its own),
 * and a repeated axis is an error.  Workloads, configs and sizes are
 * checked here, and so are config keys: an unknown key is an error
 * naming the line, since a misspelt key would make every point fail.
 * Values are not: a bad value fails its own points, which say why --
 * except in a lenient parse (reproduce), where a choice this build does
 * not offer (rf.model = rfc before the rfc model exists) is noted like an
 * unknown key: dropped from an axis (the sweep cannot run if no value is
 * left), and a `set` of it means the sweep cannot run.
 *
 * Sizes are checked before anything is built: a range's count is worked
 * out without overflow at the 64-bit limits, and the cross product may
 * have at most SWEEP_MAX_POINTS points (exp.h; the line whose list takes
 * it past is named), so a mistyped range is a message, not a machine out
 * of memory.  A value listed twice is found by sorting, not by comparing
 * every pair.
 *
 * The points are the cross product, configs slowest, then sizes, then
 * the axes in file order (the variant axis where its first line is),
 * workloads fastest.  Each point's -s list is the sets, then its axis
 * values (a variant's settings in order); a config given as a file is passed by its
 * absolute path (a Slurm task runs elsewhere); a relative value is turned into an absolute
 * one against the point's config (int keys are rounded).  The point's id
 * hashes (FNV-1a, 64 bits) its workload, size and effective config as
 * `rfsim config` would print it; when that config is invalid, the
 * inputs as spelt.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/config.h"
#include "exp/exp.h"
#include "base/json.h"
#include "../../workloads/workloads.h"

/* v, of n elements of size bytes, with room for one more: every list here grows one
 * element at a time through this, so its capacity is the power of two at or above n and
 * a list of n costs O(n) copying, not O(n^2) (a 30,000-value range took 15 s under
 * ASan, realloc copying the whole list for each value) */
static void *grow(void *v, int n, size_t size)
{
	if (n & (n - 1)) return v;               /* neither 0 nor a power of two: room left */
	return xrealloc(v, (size_t)(n ? 2 * n : 1) * size);
}

static void push(char ***v, int *n, const char *s)
{
	*v = grow(*v, *n, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++) free(v[i]);
	free(v);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t') s++;
	size_t n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1])) s[--n] = 0;
	return s;
}

/* one integer of a range at p: 0 read, 1 no number there, 2 beyond 64 bits (message
 * set, naming the line, the list, the range and the limit) */
static int range_int(const char *p, char **end, long long *x, const char *item,
                     const char *what, const char *where, int line)
{
	errno = 0;
	*x = strtoll(p, end, 10);
	if (*end == p) return 1;
	if (errno != ERANGE) return 0;
	err_set("%s:%d: %s: range '%s': %.*s is not a 64-bit integer (%lld..%lld)", where, line,
	        what, item, (int)(*end - p), p, LLONG_MIN, LLONG_MAX);
	return 2;
}

/* "A..B" or "A..B:STEP" into its values, at most SWEEP_MAX_POINTS of them; 0 if item
 * is no range, -1 if bad (message set).  The count is worked out in unsigned
 * arithmetic and each value as A + i*STEP, so a range near the 64-bit limits can
 * neither overflow nor run on for ever. */
static int expand_range(const char *item, const char *what, const char *where, int line,
                        char ***v, int *n)
{
	const char *dots = strstr(item, "..");
	if (!dots) return 0;
	char *end;
	long long a, b, step = 1;
	int r = range_int(item, &end, &a, item, what, where, line);
	if (!r && end != dots) r = 1;
	if (!r) r = range_int(dots + 2, &end, &b, item, what, where, line);
	if (!r && *end == ':') r = range_int(end + 1, &end, &step, item, what, where, line);
	if (!r && (*end || b < a || step <= 0)) r = 1;
	if (r == 1)
		err_set("%s:%d: %s: bad range '%s' (expected A..B or A..B:STEP: integers, A <= B, "
		        "STEP > 0)", where, line, what, item);
	if (r) return -1;
	unsigned long long steps = ((unsigned long long)b - (unsigned long long)a) /
	                           (unsigned long long)step;          /* values - 1 */
	if (steps >= SWEEP_MAX_POINTS) {
		err_set("%s:%d: %s: range '%s' has more than %d values (a sweep has at most %d "
		        "points)", where, line, what, item, SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
		return -1;
	}
	for (unsigned long long i = 0; i <= steps; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld",
		         (long long)((unsigned long long)a + i * (unsigned long long)step));
		push(v, n, buf);
	}
	return 1;
}

typedef struct Ranked { const char *s; int i; } Ranked;

static int by_text(const void *x, const void *y)
{
	const Ranked *a = x, *b = y;
	int c = strcmp(a->s, b->s);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* the position of the first value equal to an earlier one, or -1.  Sorting makes
 * this n log n: comparing every pair took 17 s on one 40,000-value axis. */
static int first_repeat(char **v, int n)
{
	Ranked *r = xmalloc((size_t)n * sizeof *r);
	for (int i = 0; i < n; i++) r[i] = (Ranked){v[i], i};
	qsort(r, (size_t)n, sizeof *r, by_text);
	int first = -1;
	for (int k = 1; k < n; k++)
		if (!strcmp(r[k].s, r[k - 1].s) && (first < 0 || r[k].i < first)) first = r[k].i;
	free(r);
	return first;
}

static int parse_items(char *s, const char *what, const char *where, int line, char ***v,
                       int *n);

/* what's comma list, ranges expanded; RF_EINPUT (message set, the list empty) if bad */
static int parse_list(char *s, const char *what, const char *where, int line, char ***v,
                      int *n)
{
	if (parse_items(s, what, where, line, v, n) == RF_OK) return RF_OK;
	free_list(*v, *n);
	*v = NULL;
	*n = 0;
	return RF_EINPUT;
}

static int parse_items(char *s, const char *what, const char *where, int line, char ***v,
                       int *n)
{
	free_list(*v, *n);
	*v = NULL;
	*n = 0;
	/* not strtok: it would skip the empty item of "1,,2" or a trailing comma, which are
	   edits gone wrong, as is a value listed twice (the same points twice) */
	for (char *item = s, *next; item; item = next) {
		next = strchr(item, ',');
		if (next) *next++ = 0;
		item = trim(item);
		if (!*item) {
			if (!next && *n == 0) break;   /* the whole list is empty: said below */
			err_set("%s:%d: %s: empty item in the comma list", where, line, what);
			return RF_EINPUT;
		}
		int r = expand_range(item, what, where, line, v, n);
		if (r < 0) return RF_EINPUT;
		if (r == 0) push(v, n, item);
		if (*n > SWEEP_MAX_POINTS) {       /* a long list of ranges */
			err_set("%s:%d: %s: more than %d values (a sweep has at most %d points)", where,
			        line, what, SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
			return RF_EINPUT;
		}
	}
	if (*n == 0) {
		err_set("%s:%d: %s: empty list", where, line, what);
		return RF_EINPUT;
	}
	int dup = first_repeat(*v, *n);
	if (dup >= 0) {
		err_set("%s:%d: %s: '%s' is listed twice", where, line, what, (*v)[dup]);
		return RF_EINPUT;
	}
	return RF_OK;
}

/* a config key; unknown: an error, or (lenient) noted in s->missing */
static int check_key(Sweep *s, const char *key, int lenient, int axis, const char *where,
                     int line, int *known)
{
	*known = config_key_find(key) != NULL;
	if (*known) return RF_OK;
	if (!lenient) {
		err_set("%s:%d: unknown config key '%s' (rfsim config --help lists them)",
		        where, line, key);
		return RF_EINPUT;
	}
	push(&s->missing, &s->nmissing, key);
	s->missing_axis |= axis;
	return RF_OK;
}

/* a value of a choice key (rf.model = rfc) that this build does not offer:
 * 1 when lenient and so, noted in s->missing as "key=value" (a model still to
 * come is skipped like a key still to come); else 0 */
static int missing_choice(Sweep *s, const ConfigKey *k, const char *val, int lenient)
{
	int field;
	if (!lenient || k->type != CONFIG_ENUM || !config_key_parse(k, val, &field)) return 0;
	char *kv = xmalloc(strlen(k->key) + strlen(val) + 2);
	sprintf(kv, "%s=%s", k->key, val);
	push(&s->missing, &s->nmissing, kv);
	free(kv);
	return 1;
}

static int parse_axis(Sweep *s, char *lhs, char *rhs, int rel, int lenient,
                      const char *where, int line)
{
	int known;
	if (!*lhs || strchr(lhs, ' ')) {
		err_set("%s:%d: expected 'axis KEY = VALUES'", where, line);
		return RF_EINPUT;
	}
	for (int i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].key, lhs)) {
			err_set("%s:%d: axis '%s' given twice", where, line, lhs);
			return RF_EINPUT;
		}
	if (check_key(s, lhs, lenient, 1, where, line, &known)) return RF_EINPUT;
	const ConfigKey *k = config_key_find(lhs);
	if (rel && k && k->type != CONFIG_INT && k->type != CONFIG_NUM) {
		err_set("%s:%d: '%s *=' needs a numeric key", where, line, lhs);
		return RF_EINPUT;
	}
	SweepAxis a = {.key = xstrdup(lhs), .relative = rel, .line = line};
	a.column = xmalloc(strlen(lhs) + 3);
	sprintf(a.column, "%s%s", lhs, rel ? "_x" : "");
	char what[300];
	snprintf(what, sizeof what, "axis %s", lhs);
	if (parse_list(rhs, what, where, line, &a.vals, &a.nvals)) {
		free(a.key);
		free(a.column);
		return RF_EINPUT;
	}
	for (int i = 0; rel && i < a.nvals; i++) {
		char *end;
		double m = strtod(a.vals[i], &end);
		if (*end || !(m > 0) || !isfinite(m)) {
			err_set("%s:%d: '%s' is not a positive factor", where, line, a.vals[i]);
			free_list(a.vals, a.nvals);
			free(a.key);
			free(a.column);
			return RF_EINPUT;
		}
	}
	int kept = 0;                        /* values this build offers, in order */
	for (int i = 0; known && i < a.nvals; i++) {
		if (missing_choice(s, k, a.vals[i], lenient)) free(a.vals[i]);
		else a.vals[kept++] = a.vals[i];
	}
	if (known) {
		a.nvals = kept;
		if (!kept) known = 0, s->missing_axis = 1;
	}
	if (!known) {                        /* cannot run; keep it for the record */
		free_list(a.vals, a.nvals);
		free(a.key);
		free(a.column);
		return RF_OK;
	}
	s->axes = grow(s->axes, s->naxes, sizeof *s->axes);
	s->axes[s->naxes++] = a;
	return RF_OK;
}

/* `variant LABEL = KEY=VALUE ...`: one more value of the axis "variant" */
static int parse_variant(Sweep *s, char *label, char *rhs, int lenient, const char *where,
                         int line)
{
	if (!*label || strpbrk(label, " \t,")) {
		err_set("%s:%d: expected 'variant LABEL = KEY=VALUE ...'", where, line);
		return RF_EINPUT;
	}
	SweepAxis *a = NULL;
	for (int i = 0; i < s->naxes; i++)
		if (s->axes[i].vsets) a = &s->axes[i];
	if (a && a->nvals >= SWEEP_MAX_POINTS) {
		err_set("%s:%d: more than %d variants (a sweep has at most %d points)", where, line,
		        SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
		return RF_EINPUT;
	}
	char *sets = xstrdup(rhs), *save = NULL;
	int n = 0, rc = RF_OK;
	for (char *kv = strtok_r(sets, " \t", &save); kv && !rc; kv = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(kv, '='), key[256];
		int known;
		if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key) {
			err_set("%s:%d: variant '%s': expected KEY=VALUE, got '%s'", where, line, label, kv);
			rc = RF_EINPUT;
			break;
		}
		snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
		rc = check_key(s, key, lenient, 1, where, line, &known);
		n++;
	}
	free(sets);
	if (!rc && !n) {
		err_set("%s:%d: variant '%s' sets nothing", where, line, label);
		rc = RF_EINPUT;
	}
	if (rc) return rc;
	if (!a) {
		s->axes = grow(s->axes, s->naxes, sizeof *s->axes);
		a = &s->axes[s->naxes++];
		*a = (SweepAxis){.key = xstrdup("variant"), .column = xstrdup("variant"),
		                 .line = line};
		a->vsets = xcalloc(1, sizeof *a->vsets);
	}
	int nv = a->nvals;
	push(&a->vals, &a->nvals, label);
	a->vsets = grow(a->vsets, nv, sizeof *a->vsets);
	a->vsets[nv] = xstrdup(rhs);
	a->vlines = grow(a->vlines, nv, sizeof *a->vlines);
	a->vlines[nv] = line;
	return RF_OK;
}

static int check_names(Sweep *s, const char *where, int line, int what)
{
	char ***v = what == 0 ? &s->workloads : what == 1 ? &s->configs : &s->sizes;
	int *n = what == 0 ? &s->nworkloads : what == 1 ? &s->nconfigs : &s->nsizes;
	if (*n == 1 && !strcmp((*v)[0], "all") && what < 2) {
		free_list(*v, *n);
		*v = NULL;
		*n = 0;
		if (what == 0) {
			for (int i = 0; i < nworkloads; i++) push(v, n, workloads[i].name);
		} else {
			char names[64][64];
			int nn = config_names(names, 64);
			for (int i = 0; i < nn; i++) push(v, n, names[i]);
		}
		return RF_OK;
	}
	for (int i = 0; i < *n; i++) {
		const char *x = (*v)[i];
		WlSize sz;
		char path[4096];
		if (what == 0 && !workload_find(x)) {
			err_set("%s:%d: unknown workload '%s' (rfsim list names them)", where, line, x);
			return RF_EINPUT;
		}
		if (what == 1 && config_find(x, path, sizeof path)) {
			char msg[1024];
			snprintf(msg, sizeof msg, "%s", err_msg());
			err_set("%s:%d: %s", where, line, msg);
			return RF_EINPUT;
		}
		if (what == 2 && wl_size_parse(x, &sz)) {
			err_set("%s:%d: bad size '%s' (small, default or large)", where, line, x);
			return RF_EINPUT;
		}
	}
	return RF_OK;
}

static int parse_line(Sweep *s, char *ln, int lenient, const char *where, int line)
{
	char *eq = strchr(ln, '=');
	if (!eq) {
		err_set("%s:%d: expected 'WORD = VALUE' (or a # comment)", where, line);
		return RF_EINPUT;
	}
	int rel = eq > ln && eq[-1] == '*';
	eq[-rel] = 0;
	*eq = 0;
	char *lhs = trim(ln), *rhs = trim(eq + 1);
	if (!strncmp(lhs, "axis ", 5) || !strncmp(lhs, "axis\t", 5))
		return parse_axis(s, trim(lhs + 5), rhs, rel, lenient, where, line);
	if (!rel && (!strcmp(lhs, "variant") || !strncmp(lhs, "variant ", 8) ||
	             !strncmp(lhs, "variant\t", 8)))
		return parse_variant(s, trim(lhs + 7), rhs, lenient, where, line);
	if (rel) {
		err_set("%s:%d: '*=' is only for axes", where, line);
		return RF_EINPUT;
	}
	if (!strncmp(lhs, "set ", 4) || !strncmp(lhs, "set\t", 4)) {
		char *key = trim(lhs + 4);
		int known;
		if (check_key(s, key, lenient, 0, where, line, &known)) return RF_EINPUT;
		if (!known) return RF_OK;
		if (missing_choice(s, config_key_find(key), rhs, lenient)) {
			s->missing_axis = 1;         /* the sweep is about that value: cannot run */
			return RF_OK;
		}
		char *kv = xmalloc(strlen(key) + strlen(rhs) + 2);
		sprintf(kv, "%s=%s", key, rhs);
		push(&s->sets, &s->nsets, kv);
		free(kv);
		return RF_OK;
	}
	if (!strcmp(lhs, "name")) {
		free(s->name);
		s->name = xstrdup(rhs);
		return RF_OK;
	}
	int what = !strcmp(lhs, "workloads") ? 0 : !strcmp(lhs, "configs") ? 1
	           : !strcmp(lhs, "size") || !strcmp(lhs, "sizes") ? 2 : -1;
	if (what < 0) {
		err_set("%s:%d: unknown word '%s' (name, workloads, configs, size, set, axis, "
		        "variant)",
		        where, line, lhs);
		return RF_EINPUT;
	}
	char ***v = what == 0 ? &s->workloads : what == 1 ? &s->configs : &s->sizes;
	int *n = what == 0 ? &s->nworkloads : what == 1 ? &s->nconfigs : &s->nsizes;
	if (parse_list(rhs, lhs, where, line, v, n)) return RF_EINPUT;
	s->list_line[what] = line;
	return check_names(s, where, line, what);
}

/* a variant label given twice, named at its second line */
static int check_variants(const Sweep *s, const char *where)
{
	for (int a = 0; a < s->naxes; a++) {
		const SweepAxis *ax = &s->axes[a];
		int dup = ax->vsets ? first_repeat(ax->vals, ax->nvals) : -1;
		if (dup >= 0) {
			err_set("%s:%d: variant '%s' given twice", where, ax->vlines[dup], ax->vals[dup]);
			return RF_EINPUT;
		}
	}
	return RF_OK;
}

typedef struct Factor { int line, n; const char *what, *key; } Factor;

static int by_line(const void *x, const void *y)
{
	const Factor *a = x, *b = y;
	return (a->line > b->line) - (a->line < b->line);
}

/* the cross product stays within SWEEP_MAX_POINTS; else the line whose list takes it
 * past, in file order, is named */
static int check_points(const Sweep *s, const char *where)
{
	Factor *f = xmalloc((size_t)(s->naxes + 3) * sizeof *f);
	static const char *const lists[] = {"workloads", "configs", "size"};
	const int ns[] = {s->nworkloads, s->nconfigs, s->nsizes};
	int nf = 0, rc = RF_OK;
	for (int i = 0; i < 3; i++) f[nf++] = (Factor){s->list_line[i], ns[i], lists[i], ""};
	for (int a = 0; a < s->naxes; a++)
		f[nf++] = (Factor){s->axes[a].line, s->axes[a].nvals,
		                   s->axes[a].vsets ? "" : "axis ", s->axes[a].key};
	qsort(f, (size_t)nf, sizeof *f, by_line);
	unsigned long long points = 1;
	for (int i = 0; i < nf && !rc; i++) {
		points *= (unsigned long long)(f[i].n ? f[i].n : 1);
		if (points <= SWEEP_MAX_POINTS) continue;
		err_set("%s:%d: %s%s has %d values: the sweep would have %llu points or more "
		        "(the cross product), more than the limit of %d", where, f[i].line,
		        f[i].what, f[i].key, f[i].n, points, SWEEP_MAX_POINTS);
		rc = RF_EINPUT;
	}
	free(f);
	return rc;
}

int sweep_parse(const char *text, const char *where, int lenient, Sweep *s)
{
	memset(s, 0, sizeof *s);
	char *buf = xstrdup(text), *save = NULL;
	int line = 0, rc = RF_OK;
	for (char *p = buf; p && !rc; p = save) {
		save = strchr(p, '\n');
		if (save) *save++ = 0;
		line++;
		char *hash = strchr(p, '#');
		if (hash) *hash = 0;
		p = trim(p);
		if (*p) rc = parse_line(s, p, lenient, where, line);
	}
	free(buf);
	if (!rc && !s->nworkloads) {
		err_set("%s: no 'workloads =' line", where);
		rc = RF_EINPUT;
	}
	if (!rc) rc = check_variants(s, where);
	if (!rc) rc = check_points(s, where);
	if (rc) {
		sweep_free(s);
		return rc;
	}
	if (!s->nconfigs) push(&s->configs, &s->nconfigs, "fermi-gtx480");
	s->config_args = xcalloc((size_t)s->nconfigs, sizeof *s->config_args);
	for (int i = 0; i < s->nconfigs; i++) {   /* a file: absolute, for Slurm nodes */
		char abs[4096];
		const char *c = s->configs[i];
		int file = strchr(c, '/') || (strlen(c) > 4 && !strcmp(c + strlen(c) - 4, ".cfg"));
		s->config_args[i] = xstrdup(file && realpath(c, abs) ? abs : c);
	}
	if (!s->nsizes) push(&s->sizes, &s->nsizes, "default");
	if (!s->name) {
		const char *b = strrchr(where, '/');
		b = b ? b + 1 : where;
		s->name = xstrndup(b, strcspn(b, "."));
	}
	return RF_OK;
}

int sweep_load(const char *path, Sweep *s)
{
	char *text = read_file(path, FILE_SWEEP, NULL);
	if (!text) return RF_EINPUT;
	int rc = sweep_parse(text, path, SWEEP_STRICT, s);
	free(text);
	return rc;
}

void sweep_free(Sweep *s)
{
	free(s->name);
	free_list(s->workloads, s->nworkloads);
	if (s->config_args) free_list(s->config_args, s->nconfigs);
	free_list(s->configs, s->nconfigs);
	free_list(s->sizes, s->nsizes);
	free_list(s->sets, s->nsets);
	free_list(s->missing, s->nmissing);
	for (int i = 0; i < s->naxes; i++) {
		free(s->axes[i].key);
		free(s->axes[i].column);
		if (s->axes[i].vsets) free_list(s->axes[i].vsets, s->axes[i].nvals);
		free(s->axes[i].vlines);
		free_list(s->axes[i].vals, s->axes[i].nvals);
	}
	free(s->axes);
	memset(s, 0, sizeof *s);
}

/* ---- points ---------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* KEY=VALUE with VALUE = factor times the key's value in cfg */
static char *relative_set(const Config *cfg, const char *key, const char *factor)
{
	const ConfigKey *k = config_key_find(key);
	double m = strtod(factor, NULL);
	const void *field = (const char *)cfg + k->off;
	char buf[512];
	if (k->type == CONFIG_INT)
		snprintf(buf, sizeof buf, "%s=%lld", key,
		         (long long)llround((double)*(const int64_t *)field * m));
	else
		snprintf(buf, sizeof buf, "%s=%.17g", key, *(const double *)field * m);
	return xstrdup(buf);
}

/* the point's -s list and effective config, from its config file's (base, loaded once
 * per config; base_bad if it would not load) and digit, its value of each axis;
 * returns 0 if the config is valid */
static int point_config(const Sweep *s, Point *p, const int *digit, const Config *base,
                        int base_bad, Config *cfg)
{
	int bad = base_bad;
	*cfg = *base;
	for (int i = 0; i < s->nsets; i++) {
		push(&p->sets, &p->nsets, s->sets[i]);
		bad |= !bad && config_set_kv(cfg, s->sets[i]);
	}
	for (int a = 0; a < s->naxes; a++) {
		const SweepAxis *ax = &s->axes[a];
		if (ax->vsets) {                 /* a variant: its settings, in order */
			char *sets = xstrdup(ax->vsets[digit[a]]), *save = NULL;
			for (char *kv = strtok_r(sets, " \t", &save); kv; kv = strtok_r(NULL, " \t", &save)) {
				push(&p->sets, &p->nsets, kv);
				bad |= !bad && config_set_kv(cfg, kv);
			}
			free(sets);
			continue;
		}
		char *kv;
		if (ax->relative && !bad) {
			kv = relative_set(cfg, ax->key, p->vals[a]);
		} else {
			kv = xmalloc(strlen(ax->key) + strlen(p->vals[a]) + 3);
			sprintf(kv, "%s=%s%s", ax->key, p->vals[a], ax->relative ? "x" : "");
		}
		bad |= !bad && config_set_kv(cfg, kv);
		p->sets = grow(p->sets, p->nsets, sizeof *p->sets);
		p->sets[p->nsets++] = kv;
	}
	err_clear();
	return bad;
}

/* what a point's id hashes after its workload and size, the same for every workload:
 * the effective config as `rfsim config` prints it, or when that is invalid, the
 * inputs as spelt, each with its NUL */
static char *machine_text(const Point *p, const Config *cfg, int bad, size_t *len)
{
	char *mem = NULL;
	FILE *f = open_memstream(&mem, len);
	if (bad) {
		fwrite(p->config_arg, 1, strlen(p->config_arg) + 1, f);
		for (int i = 0; i < p->nsets; i++) fwrite(p->sets[i], 1, strlen(p->sets[i]) + 1, f);
	} else {
		Json *j = json_open(f);
		config_json(cfg, j);
		json_close(j);
	}
	fclose(f);
	return mem;
}

static void point_id(Point *p, const char *machine, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char head[512];
	int n = snprintf(head, sizeof head, "rfsim-point-v1\nworkload=%s\nsize=%s\n",
	                 p->workload, p->size);
	h = fnv1a(h, head, (size_t)n);
	h = fnv1a(h, machine, len);
	snprintf(p->id, sizeof p->id, "%.24s-%016llx", p->workload, (unsigned long long)h);
}

/* the points of one config, size and axis values (digit), one per workload, from k */
static void machine_points(const Sweep *s, Point *pts, int k, int c, int z, const int *digit,
                           const Config *base, int base_bad)
{
	char *machine = NULL;
	size_t len = 0;
	for (int w = 0; w < s->nworkloads; w++) {
		Point *p = &pts[k + w];
		p->index = k + w;
		p->workload = s->workloads[w];
		p->config = s->configs[c];
		p->config_arg = s->config_args[c];
		p->size = s->sizes[z];
		p->vals = xcalloc((size_t)s->naxes + 1, sizeof *p->vals);
		for (int a = 0; a < s->naxes; a++) p->vals[a] = s->axes[a].vals[digit[a]];
		if (w == 0) {                    /* the config: once for all workloads */
			Config cfg;
			int bad = point_config(s, p, digit, base, base_bad, &cfg);
			machine = machine_text(p, &cfg, bad, &len);
		} else {
			for (int i = 0; i < pts[k].nsets; i++) push(&p->sets, &p->nsets, pts[k].sets[i]);
		}
		point_id(p, machine, len);
	}
	free(machine);
}

Point *sweep_points(const Sweep *s, int *n)
{
	long long total = (long long)s->nconfigs * s->nsizes * s->nworkloads;
	for (int a = 0; a < s->naxes; a++) total *= s->axes[a].nvals;
	assert(total <= SWEEP_MAX_POINTS);   /* sweep_parse's check_points */
	Point *pts = xcalloc(total ? (size_t)total : 1, sizeof *pts);
	int *digit = xcalloc((size_t)s->naxes + 1, sizeof *digit);
	int k = 0;
	for (int c = 0; c < s->nconfigs; c++) {
		Config base;
		config_defaults(&base);
		int base_bad = config_load(&base, s->config_args[c]) != RF_OK;
		err_clear();
		for (int z = 0; z < s->nsizes; z++) {
			memset(digit, 0, ((size_t)s->naxes + 1) * sizeof *digit);
			for (int done = 0; !done; k += s->nworkloads) {
				machine_points(s, pts, k, c, z, digit, &base, base_bad);
				int a = s->naxes - 1;          /* odometer, last axis fastest */
				while (a >= 0 && ++digit[a] == s->axes[a].nvals) digit[a--] = 0;
				done = a < 0;
			}
		}
	}
	assert(k == total);
	free(digit);
	*n = k;
	return pts;
}

void sweep_points_free(Point *p, int n)
{
	for (int i = 0; i < n; i++) {
		free(p[i].vals);
		free_list(p[i].sets, p[i].nsets);
	}
	free(p);
}

int sweep_columns(const Sweep *s, const char **cols, int max)
{
	int n = 0;
	const char *fixed[] = {"workload", "config", "size"};
	for (int i = 0; i < 3 && n < max; i++) cols[n++] = fixed[i];
	for (int a = 0; a < s->naxes && n < max; a++) cols[n++] = s->axes[a].column;
	return n;
}

const char *point_column(const Point *p, int col)
{
	return col == 0 ? p->workload : col == 1 ? p->config : col == 2 ? p->size
	       : p->vals[col - 3];
}

void point_label(const Sweep *s, const Point *p, char *buf, size_t n)
{
	size_t at = (size_t)snprintf(buf, n, "%s", p->workload);
	if (s->nconfigs > 1 && at < n) at += (size_t)snprintf(buf + at, n - at, " %s", p->config);
	if (s->nsizes > 1 && at < n) at += (size_t)snprintf(buf + at, n - at, " %s", p->size);
	for (int a = 0; a < s->naxes && at < n; a++)
		at += (size_t)snprintf(buf + at, n - at, " %s%s%s", s->axes[a].key,
		                       s->axes[a].relative ? "*=" : "=", p->vals[a]);
}
