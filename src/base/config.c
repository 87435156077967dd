/*
 * config.c -- config keys: defaults, parsing, files, help and JSON.
 *
 * config.def expands once into `keys`, a table of ConfigKey rows that
 * carry the field's offset in Config; everything else here is generic
 * code over that table, so adding a key is adding a row (Redis's
 * config.c works the same way; Multi2Sim's reader taught us to reject
 * unknown keys rather than ignore them, since a misspelt key that is
 * silently ignored makes an experiment measure the wrong machine).
 *
 * Values.  Integers are decimal or 0x hex, with an optional K, M, G or T
 * suffix meaning a power of 1024 (`gpu.global_bytes = 4G`); reals are
 * anything strtod reads that is finite; booleans are 0, 1, true, false;
 * enumerations are one of their choices, spelt exactly, or its position
 * as one digit (0 the first), so that a key that grew from a number or a
 * boolean into choices keeps its old values (compiler.schedule).
 *
 * Files.  `key = value` per line; `#` starts a comment; blank lines are
 * skipped; `include = OTHER` applies another config file at that point
 * (a bare name is looked for beside the including file first).  Errors
 * say `file:line: ...`.
 *
 * Names.  `-c NAME` means configs/NAME.cfg in the rfsim repository the
 * running executable was built in (found from /proc/self/exe: the binary
 * is build/rfsim, so ../configs), then in ./configs; code loaded from a
 * shared library (libcudart.so, in a user's program) looks beside that library
 * first (dladdr), and a directory in $RFSIM_CONFIG_PATH comes before all.  Anything with a '/' or ending in .cfg is a path.
 */
#include "base/config.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "base/json.h"

/* rf.model's choices are the register-file models, listed once in models.def */
static const char rf_model_choices[] = ""
#define RF_MODEL(name, passes, desc) "|" #name
#include "base/models.def"
#undef RF_MODEL
	;

static const ConfigKey keys[] = {
#define CI(f, k, d, lo, hi, h) \
	{k, h, CONFIG_INT, offsetof(Config, f), d, lo, hi, 0, 0, 0, NULL, NULL},
#define CF(f, k, d, lo, hi, h) \
	{k, h, CONFIG_NUM, offsetof(Config, f), 0, 0, 0, d, lo, hi, NULL, NULL},
#define CE(f, k, d, ch, h) \
	{k, h, CONFIG_ENUM, offsetof(Config, f), d, 0, 0, 0, 0, 0, ch, NULL},
#define CB(f, k, d, h) \
	{k, h, CONFIG_BOOL, offsetof(Config, f), d, 0, 1, 0, 0, 0, NULL, NULL},
#define CS(f, k, d, ch, h) \
	{k, h, CONFIG_STR, offsetof(Config, f), 0, 0, 0, 0, 0, 0, ch, d},
#include "base/config.def"
#undef CI
#undef CF
#undef CE
#undef CB
#undef CS
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

const ConfigKey *config_keys(int *n)
{
	*n = NKEYS;
	return keys;
}

const ConfigKey *config_key_find(const char *key)
{
	for (int i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].key, key)) return &keys[i];
	return NULL;
}

const char *config_choice(const ConfigKey *k, int i, char *buf, size_t n)
{
	const char *s = k->choices;
	for (; i > 0 && s; i--) {
		s = strchr(s, '|');
		if (s) s++;
	}
	if (!s || i < 0) return NULL;
	size_t len = strcspn(s, "|");
	if (len >= n) len = n - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	return buf;
}

void config_defaults(Config *c)
{
	memset(c, 0, sizeof *c);
	for (int i = 0; i < NKEYS; i++) {
		const ConfigKey *k = &keys[i];
		void *field = (char *)c + k->off;
		switch (k->type) {
		case CONFIG_INT: *(int64_t *)field = k->idef; break;
		case CONFIG_NUM: *(double *)field = k->fdef; break;
		case CONFIG_ENUM:
		case CONFIG_BOOL: *(int *)field = (int)k->idef; break;
		case CONFIG_STR: snprintf(field, CONFIG_STR_MAX, "%s", k->sdef); break;
		}
	}
	snprintf(c->name, sizeof c->name, "fermi-gtx480");
}

/* ---- values ---------------------------------------------------------- */

/* decimal or 0x hex integer with an optional K/M/G/T (1024^n) suffix */
static int parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = *p == '-';
	if (*p == '-' || *p == '+') p++;
	int base = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10;
	if (base == 16) p += 2;
	if (!(base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, base);
	if (errno) return -1;
	int shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (*end) return -1;
	if (shift && v > (ULLONG_MAX >> shift)) return -1;
	v <<= shift;
	if (v > (unsigned long long)INT64_MAX + neg) return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int bad_value(const ConfigKey *k, const char *value, const char *why)
{
	char range[128];
	switch (k->type) {
	case CONFIG_INT:
		snprintf(range, sizeof range, "an integer in %lld..%lld",
		         (long long)k->imin, (long long)k->imax);
		break;
	case CONFIG_NUM:
		snprintf(range, sizeof range, "a number in %g..%g", k->fmin, k->fmax);
		break;
	case CONFIG_ENUM:
		snprintf(range, sizeof range, "one of %s", k->choices);
		break;
	case CONFIG_BOOL:
		snprintf(range, sizeof range, "0, 1, true or false");
		break;
	case CONFIG_STR:            /* choices: the letters it may hold */
		if (k->choices) snprintf(range, sizeof range, "letters from '%s'", k->choices);
		else snprintf(range, sizeof range, "at most %d bytes", CONFIG_STR_MAX - 1);
		break;
	}
	err_set("bad value '%s' for %s: %s%s", value, k->key, why, range);
	return RF_EINPUT;
}

int config_key_parse(const ConfigKey *k, const char *value, void *field)
{
	switch (k->type) {
	case CONFIG_INT: {
		int64_t v;
		if (parse_int(value, &v)) return bad_value(k, value, "expected ");
		if (v < k->imin || v > k->imax) return bad_value(k, value, "out of range, expected ");
		*(int64_t *)field = v;
		return RF_OK;
	}
	case CONFIG_NUM: {
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (!*value || *end || errno || !isfinite(v))
			return bad_value(k, value, "expected ");
		if (v < k->fmin || v > k->fmax) return bad_value(k, value, "out of range, expected ");
		*(double *)field = v;
		return RF_OK;
	}
	case CONFIG_ENUM: {
		char buf[64];
		int i = 0;
		for (; config_choice(k, i, buf, sizeof buf); i++) {
			if (!strcmp(buf, value)) {
				*(int *)field = i;
				return RF_OK;
			}
		}
		if (value[0] >= '0' && value[0] <= '9' && !value[1] && value[0] - '0' < i) {
			*(int *)field = value[0] - '0';     /* a choice's position (see above) */
			return RF_OK;
		}
		return bad_value(k, value, "expected ");
	}
	case CONFIG_BOOL:
		if (!strcmp(value, "1") || !strcmp(value, "true")) *(int *)field = 1;
		else if (!strcmp(value, "0") || !strcmp(value, "false")) *(int *)field = 0;
		else return bad_value(k, value, "expected ");
		return RF_OK;
	case CONFIG_STR:
		if (k->choices && value[strspn(value, k->choices)])
			return bad_value(k, value, "expected ");
		if (strlen(value) >= CONFIG_STR_MAX) return bad_value(k, value, "too long: ");
		snprintf(field, CONFIG_STR_MAX, "%s", value);
		return RF_OK;
	}
	return RF_EINPUT;
}

/* ---- keys ------------------------------------------------------------ */

/* edit distance, for "did you mean"; strings longer than 63 are cut */
static int distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, 63), lb = (int)strnlen(b, 63);
	int row[64];
	for (int j = 0; j <= lb; j++) row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static int unknown_key(const char *key)
{
	const char *best = NULL;
	int bestd = INT_MAX;
	for (int i = 0; i < NKEYS; i++) {
		int d = distance(key, keys[i].key);
		if (d < bestd) bestd = d, best = keys[i].key;
	}
	int len = (int)strlen(key);
	for (int i = 0; i < NKEYS && bestd > (len < 6 ? 2 : len / 2); i++) {
		const char *dot = strrchr(keys[i].key, '.');   /* "count" -> "sm.count" */
		if (dot && !strcmp(dot + 1, key)) bestd = 0, best = keys[i].key;
	}
	if (best && bestd <= (len < 6 ? 2 : len / 2))
		err_set("unknown config key '%s' (did you mean '%s'? "
		        "'rfsim config --help' lists every key)", key, best);
	else
		err_set("unknown config key '%s' ('rfsim config --help' lists every key)", key);
	return RF_EINPUT;
}

int config_set(Config *c, const char *key, const char *value)
{
	const ConfigKey *k = config_key_find(key);
	if (!k) return unknown_key(key);
	return config_key_parse(k, value, (char *)c + k->off);
}

int config_set_kv(Config *c, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		err_set("expected key=value, got '%s'", kv);
		return RF_EINPUT;
	}
	char key[128];
	snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
	return config_set(c, key, eq + 1);
}

/* ---- finding config files -------------------------------------------- */

enum { NCONFIGDIR = 4 };

static int listed(char dirs[][PATH_MAX], int n, const char *dir)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(dirs[i], dir)) return 1;
	return 0;
}

/* bin's directory/../configs into dirs[n], if it exists and is not there yet: 1 */
static int configs_beside(char dirs[][PATH_MAX], int n, const char *bin)
{
	char dir[PATH_MAX], guess[PATH_MAX + 16];
	snprintf(dir, sizeof dir, "%s", bin);
	char *slash = strrchr(dir, '/');
	if (!slash) return 0;
	*slash = 0;
	snprintf(guess, sizeof guess, "%s/../configs", dir);
	return realpath(guess, dirs[n]) && !listed(dirs, n, dirs[n]);
}

/* the directories that hold named configs, most preferred first: $RFSIM_CONFIG_PATH,
 * beside the file this code was loaded from (libcudart.so in a user's program:
 * build/..), beside the executable (build/rfsim), then ./configs */
static int config_dirs(char dirs[NCONFIGDIR][PATH_MAX])
{
	int n = 0;
	const char *env = getenv("RFSIM_CONFIG_PATH");
	if (env && *env && realpath(env, dirs[n])) n++;
	Dl_info info;
	if (dladdr((void *)config_dirs, &info) && info.dli_fname)
		n += configs_beside(dirs, n, info.dli_fname);
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = 0;
		n += configs_beside(dirs, n, exe);
	}
	if (realpath("configs", dirs[n]) && !listed(dirs, n, dirs[n])) n++;
	return n;
}

static int is_path(const char *s)
{
	size_t n = strlen(s);
	return strchr(s, '/') || (n >= 4 && !strcmp(s + n - 4, ".cfg"));
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

int config_names(char (*names)[64], int max)
{
	char dirs[NCONFIGDIR][PATH_MAX];
	int nd = config_dirs(dirs), n = 0;
	for (int d = 0; d < nd; d++) {
		DIR *dir = opendir(dirs[d]);
		if (!dir) continue;
		for (struct dirent *e; (e = readdir(dir));) {
			size_t len = strlen(e->d_name);
			if (len <= 4 || len - 4 >= 64 || strcmp(e->d_name + len - 4, ".cfg"))
				continue;
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
			int dup = 0;
			for (int i = 0; i < n; i++) dup |= !strcmp(names[i], name);
			if (!dup && n < max) memcpy(names[n++], name, sizeof name);
		}
		closedir(dir);
	}
	qsort(names, n, sizeof names[0], cmp_name);
	return n;
}

int config_find(const char *name_or_path, char *path, size_t n)
{
	if (is_path(name_or_path)) {
		if (access(name_or_path, R_OK)) {
			err_set("cannot open config file '%s': %s", name_or_path, strerror(errno));
			return RF_EINPUT;
		}
		snprintf(path, n, "%s", name_or_path);
		return RF_OK;
	}
	char dirs[NCONFIGDIR][PATH_MAX];
	int nd = config_dirs(dirs);
	for (int d = 0; d < nd; d++) {
		snprintf(path, n, "%s/%s.cfg", dirs[d], name_or_path);
		if (!access(path, R_OK)) return RF_OK;
	}
	char names[64][64];
	int nn = config_names(names, 64);
	err_set("unknown config '%s' (known:", name_or_path);
	for (int i = 0; i < nn; i++) err_append(" %s", names[i]);
	err_append("%s)", nn ? "" : " none; no configs/ directory found");
	return RF_EINPUT;
}

/* ---- config files ---------------------------------------------------- */

static int load_file(Config *c, const char *path, int depth);

/* the file an `include = value` in `from` means */
static int include_path(const char *from, const char *value, char *out, size_t n)
{
	const char *slash = strrchr(from, '/');
	int dirlen = slash ? (int)(slash - from) : 1;
	const char *dir = slash ? from : ".";
	if (value[0] == '/') {
		snprintf(out, n, "%s", value);
		return RF_OK;
	}
	if (is_path(value)) {
		if (slash) snprintf(out, n, "%.*s/%s", dirlen, dir, value);
		else snprintf(out, n, "%s", value);
		if (access(out, R_OK)) {
			err_set("cannot open included config file '%s': %s", out, strerror(errno));
			return RF_EINPUT;
		}
		return RF_OK;
	}
	snprintf(out, n, "%.*s/%s.cfg", dirlen, dir, value);
	if (!access(out, R_OK)) return RF_OK;
	return config_find(value, out, n);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t') s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
	return s;
}

/* prefix the current error with file:line: */
static int located(const char *path, int line)
{
	char msg[2048];
	snprintf(msg, sizeof msg, "%s", err_msg());
	err_set("%s:%d: %s", path, line, msg);
	return RF_EINPUT;
}

/* line[k] is the line of this file (not of its includes) that set key k, 0 if none: a
 * key set twice in one file is almost always an edit that left the old line behind, and
 * silently taking the last would hide it.  Including a config and then overriding its
 * keys is how configs derive from each other, so that stays allowed. */
static int load_line(Config *c, const char *path, int line, char *s, int depth, int *seen)
{
	char *hash = strchr(s, '#');
	if (hash) *hash = 0;
	s = trim(s);
	if (!*s) return RF_OK;
	char *eq = strchr(s, '=');
	if (!eq) {
		err_set("expected 'key = value', got '%s'", s);
		return located(path, line);
	}
	*eq = 0;
	char *key = trim(s), *value = trim(eq + 1);
	if (!strcmp(key, "include")) {
		char inc[PATH_MAX];
		if (include_path(path, value, inc, sizeof inc)) return located(path, line);
		return load_file(c, inc, depth + 1);
	}
	if (config_set(c, key, value)) return located(path, line);
	ptrdiff_t k = config_key_find(key) - keys;
	if (seen[k]) {
		err_set("config key '%s' is set twice in this file (first on line %d)", key, seen[k]);
		return located(path, line);
	}
	seen[k] = line;
	return RF_OK;
}

static int load_file(Config *c, const char *path, int depth)
{
	if (depth > 16) {
		err_set("%s: includes nested deeper than 16 (an include cycle?)", path);
		return RF_EINPUT;
	}
	char *text = read_file(path, FILE_CONFIG, NULL);
	if (!text) return RF_EINPUT;
	int rc = RF_OK, line = 1;
	int *seen = xcalloc(NKEYS, sizeof *seen);
	for (char *s = text; s && rc == RF_OK; line++) {
		char *nl = strchr(s, '\n');
		if (nl) *nl = 0;
		rc = load_line(c, path, line, s, depth, seen);
		s = nl ? nl + 1 : NULL;
	}
	free(seen);
	free(text);
	return rc;
}

int config_load(Config *c, const char *name_or_path)
{
	char path[PATH_MAX];
	if (config_find(name_or_path, path, sizeof path)) return RF_EINPUT;
	int rc = load_file(c, path, 0);
	if (rc) return rc;
	const char *base = strrchr(name_or_path, '/');
	base = base ? base + 1 : name_or_path;
	size_t len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".cfg")) len -= 4;
	snprintf(c->name, sizeof c->name, "%.*s", (int)len, base);
	return RF_OK;
}

/* ---- output ---------------------------------------------------------- */

void config_json(const Config *c, Json *j)
{
	json_obj_begin(j, NULL);
	json_str(j, "name", c->name);
	for (int i = 0; i < NKEYS; i++) {
		const ConfigKey *k = &keys[i];
		const void *field = (const char *)c + k->off;
		char buf[64];
		switch (k->type) {
		case CONFIG_INT: json_int(j, k->key, *(const int64_t *)field); break;
		case CONFIG_NUM: json_num(j, k->key, *(const double *)field); break;
		case CONFIG_ENUM: {
			const char *s = config_choice(k, *(const int *)field, buf, sizeof buf);
			json_str(j, k->key, s ? s : "?");
			break;
		}
		case CONFIG_BOOL: json_bool(j, k->key, *(const int *)field); break;
		case CONFIG_STR: json_str(j, k->key, field); break;
		}
	}
	json_obj_end(j);
}

/* help text wrapped at 78 columns, indented by 6 */
static void wrap(FILE *f, const char *s)
{
	while (*s) {
		int len = (int)strlen(s), cut = len;
		if (len > 72) {
			for (cut = 72; cut > 0 && s[cut] != ' '; cut--) {}
			if (cut == 0) cut = 72;
		}
		fprintf(f, "      %.*s\n", cut, s);
		s += cut;
		while (*s == ' ') s++;
	}
}

void config_help(FILE *f)
{
	fputs("Config keys.  Set them in a config file (`key = value` lines, `#` comments,\n"
	      "`include = NAME` to build on another config) chosen with -c NAME|FILE,\n"
	      "or one at a time with -s key=value.  Integers take 0x hex and K/M/G/T\n"
	      "(powers of 1024) suffixes.\n\n", f);
	for (int i = 0; i < NKEYS; i++) {
		const ConfigKey *k = &keys[i];
		char def[64], range[96];
		switch (k->type) {
		case CONFIG_INT:
			snprintf(def, sizeof def, "%lld", (long long)k->idef);
			snprintf(range, sizeof range, "integer %lld..%lld",
			         (long long)k->imin, (long long)k->imax);
			break;
		case CONFIG_NUM:
			snprintf(def, sizeof def, "%g", k->fdef);
			snprintf(range, sizeof range, "number %g..%g", k->fmin, k->fmax);
			break;
		case CONFIG_ENUM:
			if (!config_choice(k, (int)k->idef, def, sizeof def)) def[0] = 0;
			snprintf(range, sizeof range, "one of %s", k->choices);
			break;
		case CONFIG_BOOL:
			snprintf(def, sizeof def, "%d", (int)k->idef);
			snprintf(range, sizeof range, "bool 0|1");
			break;
		case CONFIG_STR:
			snprintf(def, sizeof def, "\"%s\"", k->sdef);
			snprintf(range, sizeof range, k->choices ? "letters from %s" : "string",
			         k->choices ? k->choices : "");
			break;
		}
		if (strlen(k->key) + strlen(def) + strlen(range) + 11 <= 80)
			fprintf(f, "  %s = %s    (%s)\n", k->key, def, range);
		else                                     /* a long choice list: its own line */
			fprintf(f, "  %s = %s\n      (%s)\n", k->key, def, range);
		wrap(f, k->help);
	}
}
