/*
 * parse_decl.c -- PTX declarations: variables, parameters, registers, and
 * the initializers of variables.
 *
 * A variable's element type, vector width, alignment and flattened array
 * count go into its Sym; `[4][8]` is a count of 32 and `[]` a count of -1
 * (an .extern array, e.g. dynamic shared memory) unless an initializer
 * gives the size.  Initializers are laid out once, here, into the bytes
 * the variable starts with (little-endian, as on the GPU):
 *
 *   = 42                  scalar
 *   = {1, 2, 3}           fewer elements than the array: the rest is zero
 *   = {{1, 2}, {3, 4}}    nested braces are flattened
 *   = {1.5, 0f3F800000}   floats, converted to the element type
 *   = {sym, generic(sym)+8}      addresses -> Sym.isyms (bytes stay zero)
 *   = {0xFF(generic(a)+4), 0xFF00(generic(a)+4), ...}
 *                         byte masks: nvcc's spelling of a pointer inside a
 *                         .b8/.u8 array; the bytes of one address are
 *                         merged into one SymInit of the address size
 *
 * Kernel parameters may carry pointer attributes (`.ptr .global .align 16`):
 * they are hints to ptxas with no effect on the program, and are dropped;
 * so is a variable's `.attribute(.managed)` (a __managed__ variable).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "ptx/parse.h"

enum {                       /* limits that keep hostile input from exhausting memory */
	MAX_INIT_BYTES = 256 << 20,   /* an initialized variable */
	MAX_REGS = 1 << 24,           /* registers of one function */
};

/* linkage := { .visible | .extern | .weak | .common } */
uint32_t p_linkage(Parser *p)
{
	uint32_t attr = 0;
	for (;;) {
		if (p_is_dir(p, ".visible")) attr |= ATTR_VISIBLE;
		else if (p_is_dir(p, ".extern")) attr |= ATTR_EXTERN;
		else if (p_is_dir(p, ".weak")) attr |= ATTR_WEAK;
		else if (p_is_dir(p, ".common")) attr |= ATTR_COMMON;
		else return attr;
		p_next(p);
	}
}

static int dir_type(const Tok *t)
{
	return t->kind == TK_DIR ? ptxtype_lookup(t->s + 1, t->len - 1) : PT_NONE;
}

static int dir_space(const Tok *t)
{
	static const char *const names[] = {".global", ".shared", ".const", ".local", ".param"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (lex_is(t, names[i])) return 1;
	return 0;
}

/* spec := { .align INT | .v2 | .v4 | .v8 | .type | .ptr { .space | .align INT } } */
static void decl_spec(Parser *p, Sym *s, int is_param)
{
	int in_ptr = 0;
	while (p->lx.tok.kind == TK_DIR) {
		Tok t = p->lx.tok;
		int ty = dir_type(&t);
		p_next(p);
		if (lex_is(&t, ".align")) {
			int64_t a = p_int(p, "an alignment");
			if (a <= 0 || a > (1 << 20) || (a & (a - 1)))
				p_error_at(p, &t, "alignment must be a power of two");
			if (!in_ptr) s->align = (uint32_t)a;
		} else if (lex_is(&t, ".v2") || lex_is(&t, ".v4") || lex_is(&t, ".v8")) {
			s->vec = (uint8_t)(t.s[2] - '0');
		} else if (ty != PT_NONE) {
			if (s->type) p_error_at(p, &t, "two types in one declaration");
			s->type = (uint8_t)ty;
		} else if (is_param && lex_is(&t, ".ptr")) {
			in_ptr = 1;
		} else if (in_ptr && dir_space(&t)) {
			/* pointer attribute: dropped */
		} else if (!is_param && lex_is(&t, ".attribute")) {
			/* .attribute(.managed): where the host sees the variable is
			 * libcudart's business (src/cudart/memory.c); dropped */
			p_expect(p, '(', "'(' after .attribute");
			if (!p_is_dir(p, ".managed")) p_error(p, "expected .managed in .attribute(...)");
			p_next(p);
			p_expect(p, ')', "')'");
		} else if (lex_is(&t, ".texref") || lex_is(&t, ".samplerref") ||
		           lex_is(&t, ".surfref")) {
			p_error_at(p, &t, "unsupported declaration '%.*s' (rfsim implements texture "
			           "and surface objects, not texture, surface or sampler "
			           "references)", (int)t.len, t.s);
		} else {
			p_error_at(p, &t, "unknown type or attribute '%.*s'", (int)t.len, t.s);
		}
	}
	if (!s->type) p_error(p, "missing type in declaration");
	if (s->type == PT_PRED) p_error(p, "a variable cannot have type .pred");
}

/* dims := { '[' [INT] ']' }   -> flattened count; -1 for a leading [] */
static int64_t dims(Parser *p)
{
	int64_t count = 0;
	int first = 1;
	while (p->lx.tok.kind == '[') {
		Tok t = p->lx.tok;
		p_next(p);
		if (p->lx.tok.kind == ']') {
			if (!first) p_error_at(p, &t, "only the first array dimension may be empty");
			count = -1;
		} else {
			int64_t n = p_int(p, "an array size");
			if (n <= 0 || n > ((int64_t)1 << 40)) p_error_at(p, &t, "bad array size");
			if (count < 0) p_error_at(p, &t, "an unsized array must have one dimension");
			if (count && n > ((int64_t)1 << 40) / count) p_error_at(p, &t, "array too large");
			count = count ? count * n : n;
		}
		p_expect(p, ']', "']'");
		first = 0;
	}
	return count;
}

/* param := .param spec NAME [dims]       (.reg parameters are refused) */
void p_param(Parser *p, Sym *out, Tok *name)
{
	memset(out, 0, sizeof *out);
	if (p_is_dir(p, ".reg"))
		p_error(p, "unsupported: .reg function parameters (use .param)");
	if (!p_is_dir(p, ".param")) p_error(p, "expected .param");
	p_next(p);
	out->space = SP_PARAM;
	decl_spec(p, out, 1);
	*name = p->lx.tok;
	p_expect(p, TK_IDENT, "a parameter name");
	out->line = name->line, out->col = name->col;
	out->count = dims(p);
	if (out->count < 0) p_error_at(p, name, "a parameter must have a size");
}

/* ---- initializers ----------------------------------------------------------- */

static InitElem *new_elem(Parser *p, const Tok *at)
{
	VEC_RESERVE(p->ielems, p->capielem, p->nielem + 1);
	InitElem *e = &p->ielems[p->nielem++];
	memset(e, 0, sizeof *e);
	e->sym = -1, e->byte = -1, e->at = *at;
	return e;
}

/* addr := ( generic '(' NAME ')' | NAME ) [ ('+' | '-') INT ] */
static void init_addr(Parser *p, InitElem *e)
{
	Tok t = p->lx.tok;
	if (lex_is(&t, "generic") && lex_peek(&p->lx).kind == '(') {
		p_next(p);
		p_next(p);
		e->generic = 1;
		t = p->lx.tok;
		p_expect(p, TK_IDENT, "a symbol name");
		p_expect(p, ')', "')'");
	} else {
		p_next(p);
	}
	const Bind *b = p_lookup(p, t.s, t.len);
	if (!b || b->kind != B_SYM)
		p_error_at(p, &t, "undefined symbol '%.*s'", (int)t.len, t.s);
	e->sym = b->val;
	if (p->lx.tok.kind == '+' || p->lx.tok.kind == '-') {
		int neg = p->lx.tok.kind == '-';
		p_next(p);
		uint64_t v = (uint64_t)p_int(p, "an offset");
		e->addend = (int64_t)(neg ? (uint64_t)0 - v : v);
	}
}

/* bits of a numeric literal as element type ty */
static uint64_t init_value(Parser *p, const Tok *t, int neg, PtxType ty)
{
	int fl = ptxtype_is_float(ty) && ty != PT_F16X2 && ty != PT_BF16X2;
	if (t->kind == TK_INT) {
		uint64_t v = neg ? (uint64_t)0 - t->val : t->val;
		if (ty == PT_F32 || ty == PT_F64) {
			double d = neg ? -(double)t->val : (double)t->val;
			if (ty == PT_F64) memcpy(&v, &d, 8);
			else { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); v = u; }
		}
		return v;
	}
	if (!fl || (ty != PT_F32 && ty != PT_F64))
		p_error_at(p, t, "a floating-point initializer needs an .f32 or .f64 variable");
	double d;
	if (t->fbits == 32) {
		float f;
		uint32_t u = (uint32_t)t->val;
		memcpy(&f, &u, 4);
		d = f;
	} else {
		memcpy(&d, &t->val, 8);
	}
	if (neg) d = -d;
	uint64_t v = 0;
	if (ty == PT_F64) {
		memcpy(&v, &d, 8);
	} else {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, 4);
		v = u;
	}
	if (t->fbits == 32 && !neg && ty == PT_F32) v = t->val;   /* keep NaN payloads */
	if (t->fbits == 64 && !t->decimal && !neg && ty == PT_F64) v = t->val;
	return v;
}

/* scalar := ['-'] number | addr | INT '(' addr ')' */
static void init_scalar(Parser *p, PtxType ty)
{
	Tok t = p->lx.tok;
	InitElem *e = new_elem(p, &t);
	if (t.kind == TK_IDENT) {
		init_addr(p, e);
		return;
	}
	int neg = p_accept(p, '-');
	Tok v = p->lx.tok;
	if (v.kind != TK_INT && v.kind != TK_FLT) p_error(p, "expected an initializer value");
	p_next(p);
	if (v.kind == TK_INT && !neg && p->lx.tok.kind == '(') {      /* byte mask */
		int k = 0;
		while (k < 8 && v.val != (uint64_t)0xFF << (8 * k)) k++;
		if (k == 8) p_error_at(p, &v, "bad byte mask in an address initializer");
		p_next(p);
		e = &p->ielems[p->nielem - 1];
		e->byte = (int8_t)k;
		init_addr(p, e);
		p_expect(p, ')', "')'");
		return;
	}
	p->ielems[p->nielem - 1].bits = init_value(p, &v, neg, ty);
}

/* elems := '{' elem { ',' elem } '}'   elem := elems | scalar */
static void init_list(Parser *p, PtxType ty, int depth)
{
	if (depth > 16) p_error(p, "initializer nested too deeply");
	if (p->lx.tok.kind != '{') {
		init_scalar(p, ty);
		return;
	}
	p_next(p);
	do init_list(p, ty, depth + 1);
	while (p_accept(p, ','));
	p_expect(p, '}', "'}' or ',' in the initializer");
}

static void put_le(uint8_t *dst, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) dst[i] = (uint8_t)(v >> (8 * i));
}

/* merges the byte-mask elements starting at i into one address; returns the
 * number of elements consumed */
static size_t mask_group(Parser *p, size_t i, int asize, SymInit *out)
{
	const InitElem *e = &p->ielems[i];
	if (i + (size_t)asize > p->nielem) p_error_at(p, &e->at, "incomplete address byte mask");
	for (int k = 0; k < asize; k++) {
		const InitElem *x = &p->ielems[i + (size_t)k];
		if (x->byte != k || x->sym != e->sym || x->generic != e->generic ||
		    x->addend != e->addend)
			p_error_at(p, &x->at, "unsupported: partial address byte masks");
	}
	*out = (SymInit){(int64_t)i, e->sym, e->generic, (uint8_t)asize, e->addend};
	return (size_t)asize;
}

/* lays the collected elements out into s->init / s->isyms */
static void init_layout(Parser *p, Sym *s)
{
	Module *m = p->m;
	int esize = ptxtype_size((PtxType)s->type);
	int64_t per = s->vec ? s->vec : 1;
	if (s->count < 0) s->count = ((int64_t)p->nielem + per - 1) / per;
	int64_t nel = (s->count ? s->count : 1) * per;
	if ((int64_t)p->nielem > nel) p_error_at(p, &p->ielems[nel].at, "too many initializers");
	if (esize > 8) p_error_at(p, &p->ielems[0].at, "unsupported: initializers of .b128");
	if (sym_size(s) > MAX_INIT_BYTES)
		p_error_at(p, &p->ielems[0].at, "initialized variable larger than %d MiB",
		           MAX_INIT_BYTES >> 20);
	s->init = arena_alloc(m->arena, (size_t)sym_size(s) + 1);
	size_t nsym = 0;
	for (size_t i = 0; i < p->nielem; i++) nsym += p->ielems[i].sym >= 0;
	SymInit *is = arena_alloc(m->arena, (nsym + 1) * sizeof *is);
	int asize = m->address_size == 32 ? 4 : 8;
	s->init_nsym = 0;
	for (size_t i = 0; i < p->nielem;) {
		const InitElem *e = &p->ielems[i];
		if (e->sym < 0) {
			put_le(s->init + i * (size_t)esize, e->bits, esize);
			i++;
		} else if (e->byte >= 0) {
			if (esize != 1) p_error_at(p, &e->at, "byte masks need a byte array");
			i += mask_group(p, i, asize, &is[s->init_nsym++]);
		} else {
			if (esize != 4 && esize != 8)
				p_error_at(p, &e->at, "an address needs a 32- or 64-bit element");
			is[s->init_nsym++] = (SymInit){(int64_t)i * esize, e->sym, e->generic,
			                               (uint8_t)esize, e->addend};
			i++;
		}
	}
	s->isyms = is;
}

/* ---- variables and registers ----------------------------------------------- */

/* a module-scope variable declared again: an .extern declaration may be
 * repeated, and may come before or after the one definition (as in PTX
 * that the rdc linker, link.c, joins from several modules); all of them
 * name one symbol.  -> the symbol a definition completes, -1 when the
 * declaration adds nothing (an .extern one after the first), or -2 when
 * the name is new. */
static int32_t var_redeclare(Parser *p, const Tok *name, const Sym *spec)
{
	const Bind *b = p_lookup(p, name->s, name->len);
	if (!b || b->depth != p->depth || b->kind != B_SYM) return -2;
	Sym *old = &p->m->syms[b->val];
	int ext_new = (spec->attr & ATTR_EXTERN) != 0, ext_old = (old->attr & ATTR_EXTERN) != 0;
	if (old->kind != SYM_VAR || old->space != spec->space || !(ext_new || ext_old))
		p_error_at(p, name, "redeclaration of '%.*s'", (int)name->len, name->s);
	return ext_new ? -1 : b->val;
}

/* one declarator: NAME [dims] [ '=' elems ] */
static void declarator(Parser *p, const Sym *spec, int at_module)
{
	Module *m = p->m;
	Tok name = p->lx.tok;
	p_expect(p, TK_IDENT, "a variable name");
	int32_t id = at_module ? var_redeclare(p, &name, spec) : -2;
	if (id == -1) {                                 /* a repeated .extern declaration */
		dims(p);
		return;
	}
	int fresh = id == -2;
	if (fresh) id = p_new_sym(p, &name, spec->space == SP_PARAM ? SYM_PARAM : SYM_VAR,
	                          (Space)spec->space);
	Sym *s = &m->syms[id];
	uint32_t nm = s->name;
	*s = *spec;
	s->name = nm, s->kind = spec->space == SP_PARAM ? SYM_PARAM : SYM_VAR;
	s->line = name.line, s->col = name.col;
	s->func = at_module ? -1 : p->fi;
	s->scope = at_module ? -1 : p_scope_here(p);
	s->count = dims(p);
	if (fresh) p_bind(p, &name, B_SYM, id);         /* an initializer may name it */
	if (p_accept(p, '=')) {
		p->nielem = 0;
		init_list(p, (PtxType)s->type, 0);
		init_layout(p, s);
	} else if (s->count < 0 && !(s->attr & ATTR_EXTERN)) {
		p_error_at(p, &name, "array '%.*s' needs a size", (int)name.len, name.s);
	}
	if (!at_module) {
		VEC_RESERVE(p->locals, p->caplocal, p->nlocal + 1);
		p->locals[p->nlocal++] = id;
	}
}

/* var_decl := space spec declarator { ',' declarator } ';' */
void p_var_decl(Parser *p, Space sp, uint32_t attr, int at_module)
{
	Sym spec;
	memset(&spec, 0, sizeof spec);
	spec.space = (uint8_t)sp;
	spec.attr = attr;
	p_next(p);
	decl_spec(p, &spec, 0);
	do declarator(p, &spec, at_module);
	while (p_accept(p, ','));
	p_expect(p, ';', "';' after the declaration");
}

/* reg_decl := .reg [.v2|.v4|.v8] .type NAME ['<' INT '>'] { ',' NAME ['<' INT '>'] } ';' */
void p_reg_decl(Parser *p)
{
	p_next(p);
	int vec = 0, type = PT_NONE;
	while (p->lx.tok.kind == TK_DIR) {
		Tok t = p->lx.tok;
		if (lex_is(&t, ".v2") || lex_is(&t, ".v4") || lex_is(&t, ".v8")) vec = t.s[2] - '0';
		else if ((type = dir_type(&t)) == PT_NONE)
			p_error(p, "unknown register type '%.*s'", (int)t.len, t.s);
		p_next(p);
	}
	if (type == PT_NONE) p_error(p, "missing type in .reg declaration");
	do {
		Tok name = p->lx.tok;
		p_expect(p, TK_IDENT, "a register name");
		int64_t count = 0;
		if (p_accept(p, '<')) {
			Tok t = p->lx.tok;
			count = p_int(p, "a register count");
			if (count < 0 || count > (1 << 24)) p_error_at(p, &t, "bad register count");
			p_expect(p, '>', "'>'");
			if (count == 0) continue;            /* declares nothing */
		}
		if (p->nreg + (size_t)(count ? count : 1) > MAX_REGS)
			p_error_at(p, &name, "more than %d registers in one function", MAX_REGS);
		VEC_RESERVE(p->rdecl, p->caprdecl, p->nrdecl + 1);
		RegDecl *d = &p->rdecl[p->nrdecl];
		d->name = p_intern_tok(p, &name);
		d->type = (uint8_t)type, d->vec = (uint8_t)vec;
		d->base = (int32_t)p->nreg, d->count = (int32_t)count;
		d->scope = p_scope_here(p);
		size_t n = count ? (size_t)count : 1;
		VEC_RESERVE(p->regtype, p->capreg, p->nreg + n);
		memset(p->regtype + p->nreg, type, n);
		p->nreg += n;
		p_bind(p, &name, count ? B_RANGE : B_REG,
		       count ? (int32_t)p->nrdecl : d->base);
		p->nrdecl++;
	} while (p_accept(p, ','));
	p_expect(p, ';', "';' after the register declaration");
}
