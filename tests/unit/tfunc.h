/*
 * tfunc.h -- build IR functions by hand for the analysis tests, from a
 * tiny assembly with one statement per line or ';':
 *
 *   [Lk:]... [@p | @!p] mnemonic[.uni] [dst ... =] [src ...]
 *
 * Lk is label id k (a branch target as an operand).  Registers are rN
 * (id N) and p (id 0, also the guard register).  Other operands: [rN] or
 * [rN+8] an address, {rA,rB} a vector, _ the sink, a number an
 * immediate.  Operands before '=' are destinations; without '=' all are
 * sources.  Only what the analyses read is filled in: no types, no names.
 *
 * tf_each_ptx() runs a callback on every function body of every .ptx file
 * under tests/ptx and workloads (the tests run from the repository root).
 */
#ifndef RFSIM_TEST_TFUNC_H
#define RFSIM_TEST_TFUNC_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ir.h"
#include "ptx/ptx.h"

enum { TMAXINS = 20000, TMAXLAB = 4096, TMAXVOP = 4096 };

typedef struct TFunc {
	Func f;
	Ins ins[TMAXINS];
	Label labels[TMAXLAB];
	Operand vops[TMAXVOP];
} TFunc;

static inline int tf_find_op(const char *s, size_t n)
{
	for (int i = 0; i < NOP_; i++)
		if (strlen(op_info[i].name) == n && !memcmp(op_info[i].name, s, n)) return i;
	return -1;
}

static inline void tf_label(TFunc *t, int k)
{
	if (k >= TMAXLAB) die("test: too many labels");
	if (k >= t->f.nlabel) {
		for (int i = t->f.nlabel; i <= k; i++) t->labels[i].ins = -1;
		t->f.nlabel = k + 1;
	}
	t->labels[k].ins = t->f.nins;
}

static inline Ins *tf_ins(TFunc *t, int op)
{
	if (t->f.nins == TMAXINS) die("test: too many instructions");
	Ins *in = &t->ins[t->f.nins++];
	memset(in, 0, sizeof *in);
	in->op = (uint16_t)op;
	in->guard = -1;
	return in;
}

static inline void tf_reg(TFunc *t, int32_t r)
{
	if (r >= t->f.nreg) t->f.nreg = r + 1;
}

/* one operand token s[0..e) */
static inline Operand tf_operand(TFunc *t, const char *s, const char *e)
{
	Operand o = {0};
	if (*s == 'L') {
		o.kind = OPK_LABEL;
		o.reg = atoi(s + 1);
	} else if (*s == 'r' || *s == 'p') {
		o.kind = OPK_REG;
		o.reg = *s == 'p' ? 0 : atoi(s + 1);
		tf_reg(t, o.reg);
	} else if (*s == '[') {
		o.kind = OPK_ADDR;
		o.reg = atoi(s + 2);
		tf_reg(t, o.reg);
		const char *plus = memchr(s, '+', (size_t)(e - s));
		if (plus) o.imm = atoi(plus + 1);
	} else if (*s == '{') {
		o.kind = OPK_VEC;
		o.reg = t->f.nvop;
		for (const char *q = s + 1; q < e && *q != '}';) {
			const char *w = q;
			while (w < e && *w != ',' && *w != '}') w++;
			if (t->f.nvop == TMAXVOP) die("test: too many vector elements");
			t->vops[t->f.nvop++] = tf_operand(t, q, w);
			o.n++;
			q = w < e && *w == ',' ? w + 1 : w;
		}
	} else if (*s == '_') {
		o.kind = OPK_SINK;
	} else {
		o.kind = OPK_IMM;
		o.imm = atoi(s);
	}
	return o;
}

static inline void tf_operands(TFunc *t, Ins *in, const char *s, const char *e)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));
	for (int pass = 0; pass < 2; pass++) {
		const char *q = pass ? (eq ? eq + 1 : s) : s, *end = pass ? e : (eq ? eq : s);
		while (q < end) {
			while (q < end && (*q == ' ' || *q == ',')) q++;
			if (q == end) break;
			const char *w = q;
			while (w < end && *w != ' ' && *w != ',') w++;
			if (*q == '{') while (w < end && w[-1] != '}') w++;
			if (in->nd + in->ns == INS_MAXOPD) die("test: too many operands");
			in->o[in->nd + in->ns] = tf_operand(t, q, w);
			*(pass ? &in->ns : &in->nd) += 1;
			q = w;
		}
	}
}

/* one statement s[0..e) */
static inline void tf_stmt(TFunc *t, const char *s, const char *e)
{
	for (;;) {
		while (s < e && *s == ' ') s++;
		if (s == e) return;
		const char *w = s;
		while (w < e && *w != ' ') w++;
		if (w[-1] != ':') break;
		tf_label(t, atoi(s + 1));
		s = w;
	}
	int guard = -1, neg = 0;
	if (*s == '@') {
		neg = s[1] == '!';
		guard = 0;
		tf_reg(t, 0);
		s += 2 + neg;
		while (*s == ' ') s++;
	}
	const char *w = s, *dot;
	while (w < e && *w != ' ') w++;
	for (dot = s; dot < w && *dot != '.'; dot++) {}
	int op = tf_find_op(s, (size_t)(dot - s));
	if (op < 0) die("test: unknown op %.*s", (int)(w - s), s);
	Ins *in = tf_ins(t, op);
	if (dot < w) in->mods = MOD_UNI;   /* the only suffix used: .uni */
	in->guard = guard;
	in->guard_neg = (uint8_t)neg;
	tf_operands(t, in, w, e);
}

static inline void tf_build_stmt(TFunc *t, const char *s) { tf_stmt(t, s, s + strlen(s)); }

static inline Func *tf_build(TFunc *t, const char *src)
{
	memset(&t->f, 0, sizeof t->f);
	t->f.ins = t->ins;
	t->f.labels = t->labels;
	t->f.vops = t->vops;
	t->f.sym = -1;
	t->f.has_body = 1;
	for (const char *s = src; *s;) {
		const char *e = s;
		while (*e && *e != '\n' && *e != ';') e++;
		tf_stmt(t, s, e);
		s = *e ? e + 1 : e;
	}
	return &t->f;
}

/* ---- every PTX file of the repository ------------------------------------ */

typedef void (*TfPtxFn)(const Module *m, const Func *f, const char *path);
static TfPtxFn tf_ptx_fn;
static int tf_ptx_nfunc;

static inline int tf_ptx_visit(const char *path, const struct stat *st, int type,
                               struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx")) return 0;
	if (strstr(path, "/bad/")) return 0;     /* malformed on purpose: test_parse's */
	char *text = read_file(path, FILE_PTX, &n);
	Module *m = text ? ptx_parse(text, n, path) : NULL;
	if (!m) {                /* the parser's own tests report this */
		fprintf(stderr, "note: skipped %s: %s\n", path, err_msg());
		free(text);
		return 0;
	}
	for (int32_t i = 0; i < m->nfunc; i++)
		if (m->funcs[i].has_body) {
			tf_ptx_fn(m, &m->funcs[i], path);
			tf_ptx_nfunc++;
		}
	ir_free(m);
	free(text);
	return 0;
}

/* returns the number of functions visited */
static inline int tf_each_ptx(TfPtxFn fn)
{
	static const char *const dirs[] = {"tests/ptx", "workloads"};
	tf_ptx_fn = fn;
	tf_ptx_nfunc = 0;
	for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) nftw(dirs[d], tf_ptx_visit, 16, 0);
	return tf_ptx_nfunc;
}

/* parse PTX text that must be valid */
static inline Module *tf_parse(const char *text)
{
	Module *m = ptx_parse(text, strlen(text), "test.ptx");
	if (!m) die("test: %s", err_msg());
	return m;
}

#endif
