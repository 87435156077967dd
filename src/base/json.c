/*
 * json.c -- the streaming JSON writer (json.h).
 *
 * The writer keeps one small frame per open object or array: whether it
 * is an array and whether it has a member yet, which is all it needs to
 * place commas, newlines and indentation.  Nothing is buffered beyond
 * stdio, so a stats file of any size costs a few hundred bytes of state.
 */
#include "base/json.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { MAXDEPTH = 64 };

typedef struct Frame {
	char arr;                /* array (values have no key) or object */
	char nmemb;              /* has a member: the next one needs a comma */
} Frame;

struct Json {
	FILE *f;
	int depth;               /* open objects and arrays */
	int nroot;               /* values written at the top (at most one) */
	const char *key;         /* from json_key(), for the next value */
	Frame st[MAXDEPTH];
};

Json *json_open(FILE *f)
{
	Json *j = xcalloc(1, sizeof *j);
	j->f = f;
	return j;
}

int json_close(Json *j)
{
	assert(j->depth == 0 && !j->key);
	fputc('\n', j->f);
	int bad = fflush(j->f) != 0 || ferror(j->f);
	free(j);
	if (bad) {
		err_set("error writing JSON output");
		return RF_ERUNTIME;
	}
	return RF_OK;
}

void json_key(Json *j, const char *key)
{
	assert(!j->key && key);
	j->key = key;
}

/* one Unicode scalar value at s (valid UTF-8, not a surrogate, not
 * overlong) -> its length in bytes; 0 if s does not start one */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
	      : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (n <= 1) return n;
	uint32_t cp = c & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
	return n;
}

static void put_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', f);
	while (*s) {
		unsigned c = *s;
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
		                : c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b"
		                : c == '\f' ? "\\f" : NULL;
		if (esc) {
			fputs(esc, f);
			s++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			s++;
		} else {
			int n = utf8_len(s);
			if (n) {
				fwrite(s, 1, n, f);
				s += n;
			} else {
				fputs("\\ufffd", f);
				s++;
			}
		}
	}
	fputc('"', f);
}

static void indent(Json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
}

/* comma, newline, indentation and key before a value */
static void pre(Json *j, const char *key)
{
	if (!key) key = j->key;
	j->key = NULL;
	if (j->depth == 0) {
		assert(!key && j->nroot == 0);
		j->nroot++;
		return;
	}
	Frame *fr = &j->st[j->depth - 1];
	if (fr->nmemb) fputc(',', j->f);
	fr->nmemb = 1;
	indent(j);
	if (fr->arr) {
		assert(!key);
	} else {
		assert(key);
		put_str(j->f, key);
		fputs(": ", j->f);
	}
}

static void begin(Json *j, const char *key, int arr)
{
	pre(j, key);
	assert(j->depth < MAXDEPTH);
	fputc(arr ? '[' : '{', j->f);
	j->st[j->depth++] = (Frame){(char)arr, 0};
}

static void end(Json *j, int arr)
{
	assert(j->depth > 0 && j->st[j->depth - 1].arr == arr && !j->key);
	int had = j->st[--j->depth].nmemb;
	if (had) indent(j);
	fputc(arr ? ']' : '}', j->f);
}

void json_obj_begin(Json *j, const char *key) { begin(j, key, 0); }
void json_obj_end(Json *j) { end(j, 0); }
void json_arr_begin(Json *j, const char *key) { begin(j, key, 1); }
void json_arr_end(Json *j) { end(j, 1); }

void json_int(Json *j, const char *key, int64_t v)
{
	pre(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_uint(Json *j, const char *key, uint64_t v)
{
	pre(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_num(Json *j, const char *key, double v)
{
	pre(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	char buf[40];
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v) break;
	}
	fputs(buf, j->f);
}

void json_str(Json *j, const char *key, const char *s)
{
	pre(j, key);
	put_str(j->f, s);
}

void json_bool(Json *j, const char *key, int v)
{
	pre(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(Json *j, const char *key)
{
	pre(j, key);
	fputs("null", j->f);
}
