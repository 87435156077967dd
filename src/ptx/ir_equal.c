/*
 * ir_equal.c -- structural equality of two modules.
 *
 * This is the printer's contract (print.c): parse(print(m)) must equal m,
 * and the tests also use it to check that minified PTX parses to the same
 * IR as the original.  Everything is compared except source positions
 * (line/col of instructions, symbols and functions) and the file name;
 * names are compared as strings, so the interning order does not matter,
 * while every id (register, symbol, label, function) is compared as a
 * number: two equal modules number their things identically.
 *
 * On a difference, `why` receives the first one found, naming the
 * function and instruction (with the first module's source line).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ir.h"

typedef struct Eq {
	const Module *a, *b;
	char *why;
	size_t n;
} Eq;

__attribute__((format(printf, 2, 3)))
static int differ(Eq *e, const char *fmt, ...)
{
	if (e->why && e->n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->why, e->n, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static int str_eq(const Eq *e, uint32_t x, uint32_t y)
{
	return !strcmp(ir_str(e->a, x), ir_str(e->b, y));
}

#define SAME(f) (x->f == y->f)

static int opd_eq(const Operand *x, const Operand *y)
{
	return SAME(kind) && SAME(flags) && SAME(n) && SAME(comp) && SAME(reg) && SAME(imm);
}

static int ins_eq(Eq *e, const char *fn, const Ins *x, const Ins *y, int32_t i)
{
	const char *what = NULL;
	if (!SAME(op)) what = "opcode";
	else if (!SAME(type) || !SAME(type2) || !SAME(type3) || !SAME(type4)) what = "type";
	else if (!SAME(shape) || !SAME(frag) || !SAME(layout)) what = "matrix shape";
	else if (!SAME(space)) what = "space";
	else if (!SAME(vec)) what = "vector width";
	else if (!SAME(cmp) || !SAME(bop)) what = "comparison";
	else if (!SAME(rnd)) what = "rounding";
	else if (!SAME(aop)) what = "atomic operation";
	else if (!SAME(mode)) what = "mode";
	else if (!SAME(mods)) what = "modifier flags";
	else if (!SAME(guard) || !SAME(guard_neg)) what = "guard";
	else if (!str_eq(e, x->hints, y->hints)) what = "hints";
	else if (!SAME(nd) || !SAME(ns)) what = "operand count";
	for (int k = 0; !what && k < x->nd + x->ns && k < INS_MAXOPD; k++)
		if (!opd_eq(&x->o[k], &y->o[k])) what = "operand";
	if (!what) return 1;
	return differ(e, "function '%s', instruction %d (%s at line %u): %s differs", fn, i,
	              op_info[x->op < NOP_ ? x->op : 0].name, x->line, what);
}

static int sym_eq(Eq *e, int32_t id, const Sym *x, const Sym *y)
{
	const char *what = NULL;
	if (!str_eq(e, x->name, y->name)) what = "name";
	else if (!SAME(kind) || !SAME(space) || !SAME(type) || !SAME(vec)) what = "kind/type";
	else if (!SAME(attr)) what = "attributes";
	else if (!SAME(align)) what = "alignment";
	else if (!SAME(count)) what = "element count";
	else if (!SAME(func) || !SAME(scope)) what = "owner/scope";
	else if (!x->init != !y->init) what = "presence of an initializer";
	else if (x->init && memcmp(x->init, y->init, (size_t)sym_size(x))) what = "initializer";
	else if (!SAME(init_nsym)) what = "address initializers";
	for (int32_t k = 0; !what && k < x->init_nsym; k++) {
		const SymInit *p = &x->isyms[k], *q = &y->isyms[k];
		if (p->offset != q->offset || p->sym != q->sym || p->generic != q->generic ||
		    p->size != q->size || p->addend != q->addend)
			what = "address initializer";
	}
	if (!what) return 1;
	return differ(e, "symbol %d '%s' (line %u): %s differs", id, ir_str(e->a, x->name),
	              x->line, what);
}

static int ids_eq(const int32_t *x, const int32_t *y, int32_t n)
{
	return !n || !memcmp(x, y, (size_t)n * sizeof *x);
}

static int func_head_eq(Eq *e, const char *fn, const Func *x, const Func *y)
{
	const char *what = NULL;
	if (!SAME(sym) || !SAME(attr) || !SAME(has_body)) what = "symbol/attributes/body";
	else if (!SAME(nparam) || !ids_eq(x->params, y->params, x->nparam)) what = "parameters";
	else if (!SAME(nret) || !ids_eq(x->rets, y->rets, x->nret)) what = "return values";
	else if (memcmp(x->maxntid, y->maxntid, sizeof x->maxntid) ||
	         memcmp(x->reqntid, y->reqntid, sizeof x->reqntid) || !SAME(minnctapersm) ||
	         !SAME(maxnreg) || !SAME(maxclusterrank) ||
	         memcmp(x->reqnctapercluster, y->reqnctapercluster, sizeof x->reqntid))
		what = "performance directives";
	else if (!str_eq(e, x->pragmas, y->pragmas)) what = "pragmas";
	else if (!SAME(nreg) || (x->nreg && memcmp(x->regtype, y->regtype, (size_t)x->nreg)))
		what = "registers";
	else if (!SAME(nrdecl)) what = "register declarations";
	for (int32_t i = 0; !what && i < x->nrdecl; i++) {
		const RegDecl *p = &x->rdecl[i], *q = &y->rdecl[i];
		if (!str_eq(e, p->name, q->name) || p->type != q->type || p->vec != q->vec ||
		    p->base != q->base || p->count != q->count || p->scope != q->scope)
			what = "register declaration";
	}
	if (!what && (!SAME(nlocal) || !ids_eq(x->locals, y->locals, x->nlocal)))
		what = "local symbols";
	if (!what) return 1;
	return differ(e, "function '%s': %s differ", fn, what);
}

static int func_body_eq(Eq *e, const char *fn, const Func *x, const Func *y)
{
	const char *what = NULL;
	if (!SAME(nlabel)) what = "label count";
	for (int32_t i = 0; !what && i < x->nlabel; i++)
		if (!str_eq(e, x->labels[i].name, y->labels[i].name) ||
		    x->labels[i].ins != y->labels[i].ins)
			what = "labels";
	if (!what && !SAME(nbpragma)) what = "pragma count";
	for (int32_t i = 0; !what && i < x->nbpragma; i++)
		if (!str_eq(e, x->bpragmas[i].text, y->bpragmas[i].text) ||
		    x->bpragmas[i].ins != y->bpragmas[i].ins)
			what = "pragmas";
	if (!what && !SAME(nvop)) what = "vector operand count";
	for (int32_t i = 0; !what && i < x->nvop; i++)
		if (!opd_eq(&x->vops[i], &y->vops[i])) what = "vector operands";
	if (!what && !SAME(nins)) what = "instruction count";
	if (what) return differ(e, "function '%s': %s differ", fn, what);
	for (int32_t i = 0; i < x->nins; i++)
		if (!ins_eq(e, fn, &x->ins[i], &y->ins[i], i)) return 0;
	return 1;
}

static int module_head_eq(Eq *e, const Module *x, const Module *y)
{
	const char *what = NULL;
	if (!SAME(version_major) || !SAME(version_minor)) what = ".version";
	else if (!str_eq(e, x->target, y->target)) what = ".target";
	else if (!SAME(address_size)) what = ".address_size";
	else if (!SAME(nsym) || !SAME(nfunc)) what = "symbol or function count";
	else if (!SAME(nglobal) || !ids_eq(x->globals, y->globals, x->nglobal)) what = "globals";
	else if (!SAME(nfwd)) what = "forward declarations";
	for (int32_t i = 0; !what && i < x->nfwd; i++)
		if (x->fwd[i].before != y->fwd[i].before || x->fwd[i].sym != y->fwd[i].sym ||
		    x->fwd[i].attr != y->fwd[i].attr)
			what = "forward declarations";
	if (!what && !SAME(nalias)) what = "aliases";
	for (int32_t i = 0; !what && i < x->nalias; i++)
		if (x->aliases[i].sym != y->aliases[i].sym ||
		    x->aliases[i].target != y->aliases[i].target)
			what = "aliases";
	if (!what && !SAME(nfile)) what = ".file count";
	for (int32_t i = 0; !what && i < x->nfile; i++)
		if (!str_eq(e, x->file_names[i], y->file_names[i])) what = ".file names";
	if (!what && !str_eq(e, x->pragmas, y->pragmas)) what = "module pragmas";
	if (!what) return 1;
	return differ(e, "module: %s differ", what);
}

int ir_equal(const Module *a, const Module *b, char *why, size_t n)
{
	Eq e = {a, b, why, n};
	if (why && n) why[0] = 0;
	if (!module_head_eq(&e, a, b)) return 0;
	for (int32_t i = 0; i < a->nsym; i++)
		if (!sym_eq(&e, i, &a->syms[i], &b->syms[i])) return 0;
	for (int32_t i = 0; i < a->nfunc; i++) {
		const Func *x = &a->funcs[i], *y = &b->funcs[i];
		const char *fn = ir_str(a, a->syms[x->sym].name);
		if (!func_head_eq(&e, fn, x, y) || !func_body_eq(&e, fn, x, y)) return 0;
	}
	return 1;
}
