/*
 * base.c -- error buffer, checked allocation, arenas, file reading, clock.
 *
 * The arena is a list of 64 KiB chunks (larger requests get a chunk of
 * their own); everything a parsed Module owns lives in one, so freeing a
 * module is one call.
 */
#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		err_set("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) buf = xrealloc(buf, cap *= 2);
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0) break;
	}
	int bad = ferror(f) ? errno : 0;   /* EISDIR for a directory, which fopen accepts */
	fclose(f);
	if (bad) {
		free(buf);
		err_set("%s: cannot read: %s", path, strerror(bad));
		return NULL;
	}
	buf[n] = 0;
	if (len) *len = n;
	return buf;
}

double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
