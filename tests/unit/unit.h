/*
 * unit.h -- rfsim's C unit-test harness.
 *
 * A test is `TEST(name) { ... }` in any tests/unit/test_*.c; it registers
 * itself through a constructor, so adding a file or a test needs no list.
 * CHECK* macros record a failure with file:line and keep going; the runner
 * (unit_main.c) runs every test (or those whose name contains argv[1]),
 * then prints "N passed, N failed".
 */
#ifndef RFSIM_UNIT_H
#define RFSIM_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef void (*UnitFn)(void);
void unit_register(const char *name, UnitFn fn);
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int unit_failed_checks;

#define TEST(name) \
	static void test_##name(void); \
	__attribute__((constructor)) static void reg_##name(void) \
	{ unit_register(#name, test_##name); } \
	static void test_##name(void)

#define CHECK(c) do { if (!(c)) unit_fail(__FILE__, __LINE__, "CHECK(%s)", #c); } while (0)
#define CHECK_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) unit_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
	                        #a, a_, #b, b_); } while (0)
#define CHECK_EQ_U64(a, b) do { uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
	if (a_ != b_) unit_fail(__FILE__, __LINE__, "%s == 0x%" PRIx64 ", expected 0x%" PRIx64, \
	                        #a, a_, b_); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) unit_fail(__FILE__, __LINE__, \
	    "%s == \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
	if (!h_ || !strstr(h_, n_)) unit_fail(__FILE__, __LINE__, \
	    "%s == \"%s\" does not contain \"%s\"", #hay, h_ ? h_ : "(null)", n_); } while (0)

#endif
