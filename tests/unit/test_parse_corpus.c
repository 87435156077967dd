/*
 * test_parse_corpus.c -- the PTX front end on whole files.
 *
 * Every .ptx under tests/ptx/ (except bad/ and invalid/) and workloads/ --
 * found at test time, so PTX that other parts of rfsim add is covered too --
 * must
 *   - parse;
 *   - print to PTX that parses back to the same IR (ir_equal), and print
 *     the same text again from there (the printer is a fixed point);
 *   - parse to the same IR once minified the way fatbin PTX is (comments
 *     stripped, whitespace squeezed, newlines gone, spaces next to
 *     punctuation dropped);
 *   - never crash or read out of bounds when cut short anywhere or when
 *     bytes are garbled (run the sanitizer build to make that a check);
 *   - print to PTX that ptxas assembles, when ptxas is installed.
 * A synthetic multi-megabyte module checks that parsing stays fast.
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"
#include "ptx/ptx.h"
#include "unit.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* ---- the corpus ----------------------------------------------------------------- */

static char **files;
static int nfiles, capfiles;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx") || strstr(path, "/bad/") ||
	    strstr(path, "/invalid/"))
		return 0;
	if (nfiles == capfiles) {
		capfiles = capfiles ? 2 * capfiles : 64;
		files = xrealloc(files, (size_t)capfiles * sizeof *files);
	}
	files[nfiles++] = xstrdup(path);
	return 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the repository's .ptx files, relative to the current directory */
static void corpus(void)
{
	if (files) return;
	static const char *const roots[] = {"", "../", "../../"};
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
		char dir[64];
		snprintf(dir, sizeof dir, "%stests/ptx", roots[i]);
		if (access(dir, R_OK)) continue;
		nftw(dir, collect, 16, FTW_PHYS);
		snprintf(dir, sizeof dir, "%sworkloads", roots[i]);
		if (!access(dir, R_OK)) nftw(dir, collect, 16, FTW_PHYS);
		break;
	}
	if (nfiles) qsort(files, (size_t)nfiles, sizeof *files, cmpstr);
}

static char *load(const char *path, size_t *len)
{
	char *t = read_file(path, FILE_PTX, len);
	if (!t) unit_fail(__FILE__, __LINE__, "%s", err_msg());
	return t;
}

/* ---- minified PTX ------------------------------------------------------------------ */

static int punct(int c)
{
	return c && strchr(";,{}()[]:=|<>+-!@", c) != NULL;
}

/* comments stripped and whitespace runs squeezed to one space (no newlines
 * left); tight also drops the spaces next to punctuation */
static char *minify(const char *s, size_t n, int tight, size_t *outlen)
{
	char *o = xmalloc(n + 1);
	size_t k = 0;
	int space = 0;
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n') i++;
		} else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
			i += 2;
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1, i++;
		} else {
			if (space && k && !(tight && (punct(o[k - 1]) || punct(c)))) o[k++] = ' ';
			space = 0;
			if (c == '"') {
				do o[k++] = s[i++];
				while (i < n && s[i] != '"');
				if (i < n) o[k++] = s[i++];
			} else {
				o[k++] = s[i++];
			}
		}
	}
	o[k] = 0;
	*outlen = k;
	return o;
}

/* ---- per-file checks ------------------------------------------------------------- */

static void check_round_trip(const char *path, const Module *m)
{
	size_t n1, n2;
	char *p1 = ptx_print_str(m, &n1);
	Module *m2 = ptx_parse(p1, n1, "printed.ptx");
	char why[512];
	if (!m2) {
		unit_fail(__FILE__, __LINE__, "%s: printed PTX does not parse: %s", path, err_msg());
	} else if (!ir_equal(m, m2, why, sizeof why)) {
		unit_fail(__FILE__, __LINE__, "%s: printed PTX parses differently: %s", path, why);
	} else {
		char *p2 = ptx_print_str(m2, &n2);
		if (n1 != n2 || memcmp(p1, p2, n1))
			unit_fail(__FILE__, __LINE__, "%s: printing is not a fixed point", path);
		free(p2);
	}
	ir_free(m2);
	free(p1);
}

static void check_minified(const char *path, const Module *m, const char *text, size_t len)
{
	for (int tight = 0; tight < 2; tight++) {
		size_t n;
		char *mini = minify(text, len, tight, &n);
		Module *mm = ptx_parse(mini, n, path);
		char why[512];
		if (!mm)
			unit_fail(__FILE__, __LINE__, "%s minified (%d): %s", path, tight, err_msg());
		else if (!ir_equal(m, mm, why, sizeof why))
			unit_fail(__FILE__, __LINE__, "%s minified (%d) differs: %s", path, tight, why);
		ir_free(mm);
		free(mini);
	}
}

/* parse an exact-size copy (so ASan sees any overread); print what parses */
static void parse_copy(const char *text, size_t n)
{
	char *c = xmalloc(n ? n : 1);
	memcpy(c, text, n);
	Module *m = ptx_parse(c, n, "cut.ptx");
	if (m) free(ptx_print_str(m, NULL));
	ir_free(m);
	free(c);
}

static void check_truncated(const char *text, size_t len)
{
	size_t step = len / 24 + 1;
	for (size_t at = 0; at < len; at += step) parse_copy(text, at);
	for (size_t at = len > 64 ? len - 64 : 0; at < len; at += 7) parse_copy(text, at);
}

static void check_garbled(const char *text, size_t len)
{
	static const char junk[] = "{}()[];,.:%$@!|-+0xf\"/*\n _q9";
	uint32_t seed = (uint32_t)len * 2654435761u;
	char *c = xmalloc(len);
	for (int round = 0; round < 48; round++) {
		memcpy(c, text, len);
		for (int k = 0; k < 1 + round % 3; k++) {
			seed = seed * 1664525u + 1013904223u;
			c[(seed >> 8) % len] = junk[(seed >> 4) % (sizeof junk - 1)];
		}
		parse_copy(c, len);
	}
	free(c);
}

TEST(parse_corpus)
{
	corpus();
	CHECK(nfiles >= 20);
	for (int i = 0; i < nfiles; i++) {
		size_t len;
		char *text = load(files[i], &len);
		if (!text) continue;
		Module *m = ptx_parse(text, len, files[i]);
		if (!m) {
			unit_fail(__FILE__, __LINE__, "%s", err_msg());
		} else {
			check_round_trip(files[i], m);
			check_minified(files[i], m, text, len);
		}
		ir_free(m);
		check_truncated(text, len);
		if (len < 40000) check_garbled(text, len);
		free(text);
	}
}

/* ---- ptxas ---------------------------------------------------------------------- */

/* "sm_90a" out of a .target string; 0 if older than ptxas 13 supports */
static int ptxas_arch(const Module *m, char *arch, size_t n)
{
	const char *t = ir_str(m, m->target);
	int sm = 0;
	char suffix[4] = "";
	if (sscanf(t, "sm_%d%3[a-z]", &sm, suffix) < 1 || sm < 75) return 0;
	snprintf(arch, n, "sm_%d%s", sm, suffix);
	return 1;
}

TEST(parse_corpus_ptxas)
{
	if (system("ptxas --version >/dev/null 2>&1") != 0) {
		printf("parse_corpus_ptxas: ptxas not found, skipped\n");
		return;
	}
	corpus();
	char tmp[] = "/tmp/rfsim_ptxas_XXXXXX";
	int fd = mkstemp(tmp);
	CHECK(fd >= 0);
	if (fd < 0) return;
	close(fd);
	int checked = 0;
	for (int i = 0; i < nfiles; i++) {
		size_t len;
		char *text = load(files[i], &len), arch[32];
		Module *m = text ? ptx_parse(text, len, files[i]) : NULL;
		if (m && ptxas_arch(m, arch, sizeof arch)) {
			FILE *f = fopen(tmp, "w");
			ptx_print(m, f);
			fclose(f);
			char cmd[256];
			snprintf(cmd, sizeof cmd, "ptxas -c -arch=%s %s -o /dev/null 2>&1", arch, tmp);
			FILE *out = popen(cmd, "r");
			char msg[4096] = "";
			size_t got = out ? fread(msg, 1, sizeof msg - 1, out) : 0;
			msg[got] = 0;
			int rc = out ? pclose(out) : -1;
			if (rc != 0) unit_fail(__FILE__, __LINE__, "%s: ptxas rejects the printed PTX:\n%s",
			                       files[i], msg);
			checked++;
		}
		ir_free(m);
		free(text);
	}
	remove(tmp);
	printf("parse_corpus_ptxas: ptxas assembled %d printed modules\n", checked);
	CHECK(checked >= 10);
}

/* ---- speed ------------------------------------------------------------------------ */

/* a module of n kernels of typical nvcc-like code */
static char *synthetic(int n, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = open_memstream(&buf, &cap);
	fputs(".version 9.0\n.target sm_90\n.address_size 64\n\n", f);
	for (int k = 0; k < n; k++) {
		fprintf(f, ".visible .entry kern%d(\n\t.param .u64 kern%d_param_0,\n"
		        "\t.param .u32 kern%d_param_1\n)\n{\n\t.reg .pred \t%%p<4>;\n"
		        "\t.reg .f32 \t%%f<40>;\n\t.reg .b32 \t%%r<40>;\n\t.reg .b64 \t%%rd<40>;\n\n"
		        "\tld.param.u64 \t%%rd1, [kern%d_param_0];\n"
		        "\tld.param.u32 \t%%r1, [kern%d_param_1];\n\tmov.u32 \t%%r2, %%tid.x;\n",
		        k, k, k, k, k);
		for (int i = 0; i < 24; i++) {
			fprintf(f, "$L__BB%d_%d:\n\tmad.lo.s32 \t%%r%d, %%r2, %d, %%r1;\n"
			        "\tmul.wide.s32 \t%%rd%d, %%r%d, 4;\n\tadd.s64 \t%%rd%d, %%rd1, %%rd%d;\n"
			        "\tld.global.f32 \t%%f%d, [%%rd%d+16];\n"
			        "\tfma.rn.f32 \t%%f%d, %%f%d, 0f3F800000, %%f%d;\n"
			        "\tsetp.lt.s32 \t%%p1, %%r%d, %%r1;\n\t@%%p1 bra \t$L__BB%d_%d;\n",
			        k, i, 3 + i % 30, i, 3 + i % 30, 3 + i % 30, 4 + i % 30, 3 + i % 30,
			        1 + i % 30, 4 + i % 30, 2 + i % 30, 1 + i % 30, 2 + i % 30, 3 + i % 30,
			        k, i);
		}
		fputs("\tret;\n\n}\n", f);
	}
	fclose(f);
	*len = strlen(buf);
	return buf;
}

TEST(parse_speed)
{
	size_t len;
	char *text = synthetic(1200, &len);
	double t0 = now_sec();
	Module *m = ptx_parse(text, len, "synthetic.ptx");
	double dt = now_sec() - t0;
	CHECK(m != NULL);
	if (m) CHECK_EQ(m->nfunc, 1200);
	printf("parse_speed: %.1f MB in %.3f s (%.0f MB/s)%s\n", len / 1e6, dt, len / 1e6 / dt,
	       SANITIZED ? " [sanitizer build]" : "");
	CHECK(len > 3000000);
	CHECK(dt < (SANITIZED ? 10.0 : 1.0));
	ir_free(m);
	free(text);
}
