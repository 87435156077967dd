/*
 * results.c -- a sweep's results: the points' files, and the CSV.
 *
 * DIR/points/ID.json is the `rfsim run --stats` file of a finished point;
 * only its "totals" object matters here, flattened (a nested object's
 * keys become "outer.inner"; arrays are skipped) into text columns.
 * Reading JSON is cJSON's job (Debian's libcjson): rfsim writes JSON with
 * its own small writer, but parses none anywhere else.
 *
 * DIR/results.csv has one row per point that has a result, in the
 * sweep's point order, and these columns:
 *
 *   workload, config, size, AXIS...   the point's inputs, as spelt
 *   status                            ok | failed
 *   STAT...                           every "totals" key, first seen first
 *   error                             why a failed point failed (one line)
 *   point                             its id: DIR/points/ID.json
 *
 * so `plot` knows a point's inputs as the columns before "status".  The
 * file is always regenerated whole and renamed into place.  Fields are
 * quoted as RFC 4180 says (comma, quote, line break), which csv_read
 * undoes.  Printed tables (plot's, compare's) share one row printer,
 * exp_table_row: each caller formats its cells, the columns say how wide.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "exp/exp.h"

int stat_is_host_timing(const char *key)
{
	size_t n = strlen(key);
	return !strcmp(key, "sim_seconds") || (n > 8 && !strcmp(key + n - 8, "_per_sec"));
}

int exp_write_atomic(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX + 32];
	snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) return -1;
	int bad = fwrite(text, 1, len, f) != len;
	bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int exp_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/') continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST) return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* ---- one point ------------------------------------------------------- */

static void add_stat(PointResult *r, const char *key, const char *val)
{
	r->keys = xrealloc(r->keys, (r->nstats + 1) * sizeof *r->keys);
	r->vals = xrealloc(r->vals, (r->nstats + 1) * sizeof *r->vals);
	r->keys[r->nstats] = xstrdup(key);
	r->vals[r->nstats++] = xstrdup(val);
}

/* the shortest text that reads back as v */
static void num_text(double v, char *buf, size_t n)
{
	if (!isfinite(v)) {
		buf[0] = 0;
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v) return;
	}
}

static void flatten(PointResult *r, const cJSON *obj, const char *prefix)
{
	for (const cJSON *c = obj->child; c; c = c->next) {
		char key[256], num[64];
		snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", c->string);
		if (cJSON_IsObject(c)) flatten(r, c, key);
		else if (cJSON_IsString(c)) add_stat(r, key, c->valuestring);
		else if (cJSON_IsBool(c)) add_stat(r, key, cJSON_IsTrue(c) ? "true" : "false");
		else if (cJSON_IsNumber(c)) num_text(c->valuedouble, num, sizeof num), add_stat(r, key, num);
		else if (cJSON_IsNull(c)) add_stat(r, key, "");
	}
}

/* the "totals" of a stats file; 0 ok, -1 missing or unreadable */
static int load_totals(const char *path, PointResult *r)
{
	char *text = read_file(path, FILE_STATS, NULL);
	if (!text) return -1;
	cJSON *root = cJSON_Parse(text);
	free(text);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "totals");
	int rc = cJSON_IsObject(t) ? 0 : -1;
	if (!rc) flatten(r, t, "");
	cJSON_Delete(root);
	err_clear();
	return rc;
}

int result_load(const char *dir, const Point *p, PointResult *r)
{
	char path[PATH_MAX];
	memset(r, 0, sizeof *r);
	snprintf(path, sizeof path, "%s/points/%s.json", dir, p->id);
	if (!load_totals(path, r)) {
		r->status = PR_OK;
		return RF_OK;
	}
	result_free(r);
	snprintf(path, sizeof path, "%s/points/%s.err", dir, p->id);
	char *err = read_file(path, FILE_LOG, NULL);
	err_clear();
	if (!err) return RF_OK;
	r->status = PR_FAILED;
	const char *e = strncmp(err, "error: ", 7) ? err : err + 7;
	r->error = xstrndup(e, strcspn(e, "\n"));
	free(err);
	snprintf(path, sizeof path, "%s/points/%s.failed.json", dir, p->id);
	load_totals(path, r);
	return RF_OK;
}

void result_free(PointResult *r)
{
	for (int i = 0; i < r->nstats; i++) {
		free(r->keys[i]);
		free(r->vals[i]);
	}
	free(r->keys);
	free(r->vals);
	free(r->error);
	memset(r, 0, sizeof *r);
}

/* ---- the CSV --------------------------------------------------------- */

void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"') fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void exp_table_row(FILE *f, const TabCol *col, const char *const *cell, int n, int md)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%*s", md ? (i ? " | " : "| ") : col[i].sep,
		        col[i].left ? -col[i].width : col[i].width, cell[i]);
	fputs(md ? " |\n" : "\n", f);
}

static const char *stat_of(const PointResult *r, const char *key)
{
	for (int i = 0; i < r->nstats; i++)
		if (!strcmp(r->keys[i], key)) return r->vals[i];
	return "";
}

int results_write_csv(const char *dir, const Sweep *s, const Point *pts,
                      const PointResult *res, int n)
{
	const char *cols[256];
	int nin = sweep_columns(s, cols, 256), nst = 0;
	char **st = NULL;                    /* stat columns, first seen first */
	for (int i = 0; i < n; i++)
		for (int k = 0; k < res[i].nstats; k++) {
			int seen = 0;
			for (int c = 0; c < nst && !seen; c++) seen = !strcmp(st[c], res[i].keys[k]);
			if (seen) continue;
			st = xrealloc(st, (nst + 1) * sizeof *st);
			st[nst++] = res[i].keys[k];
		}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (int c = 0; c < nin; c++) csv_field(f, cols[c]), fputc(',', f);
	fputs("status", f);
	for (int c = 0; c < nst; c++) fputc(',', f), csv_field(f, st[c]);
	fputs(",error,point\n", f);
	for (int i = 0; i < n; i++) {
		if (res[i].status == PR_NONE) continue;
		for (int c = 0; c < nin; c++) csv_field(f, point_column(&pts[i], c)), fputc(',', f);
		fputs(res[i].status == PR_OK ? "ok" : "failed", f);
		for (int c = 0; c < nst; c++) fputc(',', f), csv_field(f, stat_of(&res[i], st[c]));
		fputc(',', f);
		csv_field(f, res[i].error ? res[i].error : "");
		fprintf(f, ",%s\n", pts[i].id);
	}
	fclose(f);
	free(st);
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/results.csv", dir);
	int rc = exp_write_atomic(path, buf, len);
	free(buf);
	return rc;
}

/* ---- reading a CSV --------------------------------------------------- */

/* one field at *p (quoted or not); advances past its separator; *eol set at
 * the end of a row */
static char *next_field(const char **p, int *eol)
{
	const char *s = *p;
	size_t cap = 64, n = 0;
	char *out = xmalloc(cap);
	int quoted = *s == '"';
	if (quoted) s++;
	for (;; s++) {
		if (!*s) break;
		if (quoted && *s == '"' && s[1] == '"') {
			s++;
		} else if (quoted && *s == '"') {
			quoted = 0;
			continue;
		} else if (!quoted && (*s == ',' || *s == '\n' || *s == '\r')) {
			break;
		}
		if (n + 2 > cap) out = xrealloc(out, cap *= 2);
		out[n++] = *s;
	}
	out[n] = 0;
	*eol = *s != ',';
	if (*s == '\r') s++;
	if (*s) s++;
	*p = s;
	return out;
}

int csv_read(const char *path, Csv *c)
{
	memset(c, 0, sizeof *c);
	char *text = read_file(path, FILE_CSV, NULL);
	if (!text) return RF_EINPUT;
	const char *p = text;
	int line = 1, col = 0, eol;
	while (*p) {
		char *f = next_field(&p, &eol);
		if (line == 1) {
			c->cols = xrealloc(c->cols, (c->ncols + 1) * sizeof *c->cols);
			c->cols[c->ncols++] = f;
		} else {
			c->cells = xrealloc(c->cells, ((size_t)c->nrows * c->ncols + col + 1) *
			                              sizeof *c->cells);
			c->cells[(size_t)c->nrows * c->ncols + col] = f;
		}
		col++;
		if (!eol) continue;
		if (line > 1 && col != c->ncols) {
			err_set("%s:%d: %d fields, but the header has %d", path, line, col, c->ncols);
			free(text);
			for (size_t i = 0; i < (size_t)c->nrows * c->ncols + col; i++) free(c->cells[i]);
			free(c->cells);
			c->cells = NULL;
			c->nrows = 0;
			csv_free(c);
			return RF_EINPUT;
		}
		if (line > 1) c->nrows++;
		line++;
		col = 0;
	}
	free(text);
	if (!c->ncols) {
		err_set("%s: empty file", path);
		return RF_EINPUT;
	}
	int st = csv_col(c, "status");
	c->ninputs = st >= 0 ? st : c->ncols;
	return RF_OK;
}

void csv_free(Csv *c)
{
	for (int i = 0; i < c->ncols; i++) free(c->cols[i]);
	size_t cells = (size_t)c->nrows * c->ncols;
	for (size_t i = 0; i < cells && c->cells; i++) free(c->cells[i]);
	free(c->cols);
	free(c->cells);
	memset(c, 0, sizeof *c);
}

int csv_col(const Csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (!strcmp(c->cols[i], name)) return i;
	return -1;
}
