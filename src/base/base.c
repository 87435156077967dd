/*
 * base.c -- error buffer, checked allocation, arenas, file reading, clock.
 *
 * The arena is a list of 64 KiB chunks (larger requests get a chunk of
 * their own); everything a parsed Module owns lives in one, so freeing a
 * module is one call.
 *
 * Files are read whole, but never more than their kind's limit (base.h's
 * FileKind): a user can name /dev/zero, a FIFO or a 50 GB file anywhere a
 * file is read, and a clear refusal beats running out of memory.
 */
#define _POSIX_C_SOURCE 200809L
#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static char errbuf[8192];

void err_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(errbuf, sizeof errbuf, fmt, ap);
	va_end(ap);
}

void err_append(const char *fmt, ...)
{
	size_t n = strlen(errbuf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(errbuf + n, sizeof errbuf - n, fmt, ap);
	va_end(ap);
}

const char *err_msg(void) { return errbuf; }
void err_clear(void) { errbuf[0] = 0; }

void die_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "rfsim: internal error at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

typedef struct Chunk { struct Chunk *next; size_t used, cap; } Chunk;
struct Arena { Chunk *head; };
enum { CHUNK = 64 * 1024 };

Arena *arena_new(void) { return xcalloc(1, sizeof(Arena)); }

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	Chunk *c = a->head;
	if (!c || c->used + n > c->cap) {
		size_t cap = n > CHUNK ? n : CHUNK;
		c = xmalloc(sizeof(Chunk) + 16 + cap);
		c->cap = cap;
		c->used = 0;
		if (n > CHUNK && a->head) {         /* big block: keep the current chunk on top */
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	char *base = (char *)(((uintptr_t)(c + 1) + 15) & ~(uintptr_t)15);
	void *p = base + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

void *arena_dup(Arena *a, const void *p, size_t n)
{
	void *d = arena_alloc(a, n);
	if (n) memcpy(d, p, n);
	return d;
}

void arena_free(Arena *a)
{
	if (!a) return;
	for (Chunk *c = a->head, *nx; c; c = nx) {
		nx = c->next;
		free(c);
	}
	free(a);
}

/* ---- reading files ------------------------------------------------------ */

/* per FileKind: the size limit, what the file is (for messages), whether it is text
 * that a NUL byte would silently end */
static const struct { size_t max; const char *what; int text; } kinds[] = {
	[FILE_PTX] = {128u << 20, "a PTX file", 0},     /* the lexer reports NULs itself */
	[FILE_CONFIG] = {1u << 20, "a config file", 1},
	[FILE_SWEEP] = {4u << 20, "a sweep file", 1},
	[FILE_CSV] = {256u << 20, "a results CSV", 1},
	[FILE_STATS] = {256u << 20, "a statistics file", 1},
	[FILE_LOG] = {1u << 20, "an error record", 0},
};

/* "PATH: [SIZE, ]more than MAX, WHY"; size < 0: not known (a stream) */
static void too_big(const char *path, long long size, size_t max, const char *why)
{
	char has[48] = "";
	if (size >= 0) snprintf(has, sizeof has, "%lld bytes, ", size);
	if (max >= (1u << 20) && max % (1u << 20) == 0)
		err_set("%s: %smore than %zu MiB, %s", path, has, max >> 20, why);
	else
		err_set("%s: %smore than %zu bytes, %s", path, has, max, why);
}

/* the file's bytes, at most max of them: a regular file is measured before it is
 * read, anything else (a pipe, /dev/zero) read until it ends or passes max */
static char *read_bounded(const char *path, size_t max, const char *why, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		err_set("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
		fclose(f);
		too_big(path, (long long)st.st_size, max, why);
		return NULL;
	}
	size_t cap = max < (1u << 16) ? max + 2 : 1u << 16, n = 0;
	char *buf = xmalloc(cap);
	while (n <= max) {                 /* room for max + 1 bytes, to see one too many */
		if (n + 1 >= cap) {
			cap = cap > (max + 2) / 2 ? max + 2 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0) break;
	}
	int bad = ferror(f) ? errno : 0;   /* EISDIR for a directory, which fopen accepts */
	fclose(f);
	if (bad || n > max) {
		free(buf);
		if (bad) err_set("%s: cannot read: %s", path, strerror(bad));
		else too_big(path, -1, max, why);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

char *read_file_max(const char *path, size_t max, const char *why, size_t *len)
{
	size_t n;
	char *buf = read_bounded(path, max, why, &n);
	if (buf && len) *len = n;
	return buf;
}

char *read_file(const char *path, FileKind kind, size_t *len)
{
	char why[64];
	snprintf(why, sizeof why, "the limit for %s", kinds[kind].what);
	size_t n;
	char *buf = read_bounded(path, kinds[kind].max, why, &n);
	const char *nul = buf && kinds[kind].text ? memchr(buf, 0, n) : NULL;
	if (nul) {                         /* strchr and friends would stop there */
		int line = 1;
		const char *bol = buf;
		for (const char *p = buf; p < nul; p++)
			if (*p == '\n') line++, bol = p + 1;
		err_set("%s:%d:%d: a NUL byte (%s is text)", path, line, (int)(nul - bol) + 1,
		        kinds[kind].what);
		free(buf);
		return NULL;
	}
	if (buf && len) *len = n;
	return buf;
}

double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
