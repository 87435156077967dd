/*
 * base.h -- the small things every part of rfsim uses: allocation that
 * cannot fail silently, arenas, bit sets, and error reporting.
 *
 * Errors come in two kinds (STYLE.md).  A user's mistake -- bad PTX, a bad
 * config value, a kernel that reads out of bounds -- is reported with
 * err_set() into one process-wide message buffer and travels up as a
 * return code (RF_EINPUT or RF_ERUNTIME) so that library layers (the
 * driver API, later libcudart) can turn it into a CUresult instead of
 * exiting.  The CLI prints err_msg() and exits with the matching code.
 * A bug in rfsim itself is an assert() or die() that names the source
 * location.
 */
#ifndef RFSIM_BASE_H
#define RFSIM_BASE_H

#include <stddef.h>
#include <stdint.h>

/* return codes used across rfsim; also the CLI exit codes */
enum { RF_OK = 0, RF_ERUNTIME = 1, RF_EINPUT = 2 };

/* error message buffer (one per process; rfsim is single-threaded per process) */
void err_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void err_append(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *err_msg(void);
void err_clear(void);

/* internal errors: print "rfsim: internal error at FILE:LINE: msg" and abort */
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
void die_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* grow a dynamic array: ensures cap >= need, doubling */
#define VEC_RESERVE(p, cap, need) do { \
	if ((size_t)(need) > (size_t)(cap)) { \
		size_t nc_ = (cap) ? (size_t)(cap) * 2 : 16; \
		while (nc_ < (size_t)(need)) nc_ *= 2; \
		(p) = xrealloc((p), nc_ * sizeof *(p)); (cap) = nc_; \
	} } while (0)

/* arena: bump allocation, freed all at once */
typedef struct Arena Arena;
Arena *arena_new(void);
void *arena_alloc(Arena *a, size_t n);            /* zeroed, 16-byte aligned */
void *arena_dup(Arena *a, const void *p, size_t n);
void arena_free(Arena *a);

/* What a file is read for, which sets how large it may be (base.c's table, README
 * "Limits"): a larger one, or an endless one (/dev/zero), is refused by name at the
 * limit instead of filling memory.  Config, sweep, CSV and statistics files are text:
 * a NUL byte in one is an error at FILE:LINE:COL, where it would silently end the
 * text.  PTX is text too, but its lexer reports a NUL itself and lets NUL padding end
 * the text, as PTX pulled out of a fatbin has. */
typedef enum FileKind {
	FILE_PTX,                /* PTX: run, analyze, cuModuleLoad */
	FILE_CONFIG,             /* a config file (-c, RFSIM_CONFIG, include) */
	FILE_SWEEP,              /* a sweep file */
	FILE_CSV,                /* a sweep's results.csv (plot) */
	FILE_STATS,              /* a point's statistics JSON (sweep results) */
	FILE_LOG,                /* a point's error record; may hold any bytes */
} FileKind;

/* read a whole file; NULL with err_set() on failure; *len excludes the NUL added */
char *read_file(const char *path, FileKind kind, size_t *len);
/* the same for a file of any bytes and at most max of them; a larger one is an error
 * "PATH: [SIZE bytes, ]more than MAX bytes, WHY" */
char *read_file_max(const char *path, size_t max, const char *why, size_t *len);

/* monotonic seconds, for rates in statistics */
double now_sec(void);

#endif
