/*
 * parse.c -- PTX text to IR: the module structure.
 *
 * A recursive-descent parser over the tokens of lex.c, one function per
 * grammar rule, each opening with its rule.  This file reads the module
 * header, the module-scope directives, function headers and bodies, and
 * owns the scope table and the error path (parse.h); declarations are in
 * parse_decl.c and instructions in parse_ins.c.
 *
 * What is kept and what is dropped (ir.h says where things go):
 *   kept     .version .target .address_size, .file names, module and
 *            statement .pragma strings, function directives (.maxntid
 *            .reqntid .minnctapersm .maxnreg .maxclusterrank
 *            .reqnctapercluster .explicitcluster .noreturn), linkage,
 *            forward declarations, .alias, .callprototype signatures
 *   dropped  .loc (with function_name/inlined_at), .section blocks (DWARF)
 *            and the `debug` target option that requires them, attributes of kernel parameters (.ptr .space .align)
 *   refused  texture/surface/sampler references, .reg parameters,
 *            .calltargets/.branchtargets, directives rfsim does not know
 *
 * Functions may be declared several times and defined once; the
 * declarations must agree.  Module.globals then holds the function where
 * its body is (its first declaration if it has none) and Module.fwd the
 * other declarations, so that the printer writes them back in place.
 */
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ptx.h"

/* ---- errors and tokens -------------------------------------------------- */

void p_error_at(Parser *p, const Tok *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	err_set("%s:%u:%u: %s", p->file, t->line, t->col, msg);
	longjmp(p->fail, 1);
}

void p_next(Parser *p)
{
	lex_next(&p->lx);
	if (p->lx.tok.kind == TK_ERR) p_error(p, "%s", p->lx.err);
}

int p_accept(Parser *p, int kind)
{
	if (p->lx.tok.kind != kind) return 0;
	p_next(p);
	return 1;
}

static const char *tok_desc(const Tok *t, char *buf, size_t n)
{
	if (t->kind == TK_EOF) return "end of file";
	snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : (int)t->len, t->s);
	return buf;
}

void p_expect(Parser *p, int kind, const char *what)
{
	if (p->lx.tok.kind == kind) {
		p_next(p);
		return;
	}
	char buf[64];
	p_error(p, "expected %s, found %s", what, tok_desc(&p->lx.tok, buf, sizeof buf));
}

int p_is_dir(const Parser *p, const char *word)
{
	return p->lx.tok.kind == TK_DIR && lex_is(&p->lx.tok, word);
}

uint32_t p_intern_tok(Parser *p, const Tok *t)
{
	return ir_intern(p->m, t->s, t->len);
}

/* int := ['-'] integer */
int64_t p_int(Parser *p, const char *what)
{
	int neg = p_accept(p, '-');
	if (p->lx.tok.kind != TK_INT) {
		char buf[64];
		p_error(p, "expected %s, found %s", what, tok_desc(&p->lx.tok, buf, sizeof buf));
	}
	int64_t v = (int64_t)p->lx.tok.val;
	p_next(p);
	return neg ? -v : v;
}

/* a small non-negative count (array size, alignment, thread count) */
static int32_t small_int(Parser *p, const char *what)
{
	Tok t = p->lx.tok;
	int64_t v = p_int(p, what);
	if (v < 0 || v > INT32_MAX) p_error_at(p, &t, "%s out of range", what);
	return (int32_t)v;
}

/* ---- scopes ------------------------------------------------------------- */

const Bind *p_lookup(Parser *p, const char *s, size_t len)
{
	int32_t id = ir_str_find(p->m, s, len);
	if (id < 0 || (size_t)id >= p->caphead || !p->head[id]) return NULL;
	return &p->binds[p->head[id] - 1];
}

void p_bind(Parser *p, const Tok *name, int kind, int32_t val)
{
	uint32_t id = p_intern_tok(p, name);
	if (id >= p->caphead) {
		size_t old = p->caphead;
		VEC_RESERVE(p->head, p->caphead, (size_t)id + 1);
		memset(p->head + old, 0, (p->caphead - old) * sizeof *p->head);
	}
	if (p->head[id] && p->binds[p->head[id] - 1].depth == p->depth)
		p_error_at(p, name, "redeclaration of '%.*s'", (int)name->len, name->s);
	VEC_RESERVE(p->binds, p->capbind, p->nbind + 1);
	p->binds[p->nbind] = (Bind){id, (uint8_t)kind, val, p->head[id] - 1, p->depth};
	p->head[id] = (int32_t)++p->nbind;
}

static void scope_pop(Parser *p, int32_t depth)
{
	while (p->nbind && p->binds[p->nbind - 1].depth > depth) {
		Bind *b = &p->binds[--p->nbind];
		p->head[b->name] = b->prev + 1;
	}
	p->depth = depth;
}

int32_t p_scope_here(const Parser *p)
{
	return p->nblock ? p->blocks[p->nblock - 1] : -1;
}

int32_t p_new_sym(Parser *p, const Tok *name, SymKind kind, Space sp)
{
	Module *m = p->m;
	VEC_RESERVE(m->syms, p->capsym, (size_t)m->nsym + 1);
	Sym *s = &m->syms[m->nsym];
	memset(s, 0, sizeof *s);
	s->name = p_intern_tok(p, name);
	s->kind = (uint8_t)kind;
	s->space = (uint8_t)sp;
	s->func = -1;
	s->scope = -1;
	s->line = name->line, s->col = name->col;
	return m->nsym++;
}

static void add_item(Parser *p, int32_t sym, int primary, uint32_t attr)
{
	VEC_RESERVE(p->items, p->capitem, p->nitem + 1);
	p->items[p->nitem++] = (Item){sym, (uint8_t)primary, attr};
}

/* ---- module header and directives ----------------------------------------- */

/* version := .version INT '.' INT   (lexed as one decimal literal) */
static void version(Parser *p)
{
	p_next(p);
	Tok t = p->lx.tok;
	unsigned maj = 0, min = 0;
	char buf[32];
	snprintf(buf, sizeof buf, "%.*s", t.len > 30 ? 30 : (int)t.len, t.s);
	if ((t.kind != TK_FLT && t.kind != TK_INT) || sscanf(buf, "%u.%u", &maj, &min) != 2 ||
	    maj > 99 || min > 99)
		p_error(p, "expected a version number like 8.5 after .version");
	p->m->version_major = (int32_t)maj, p->m->version_minor = (int32_t)min;
	p_next(p);
}

/* target := .target IDENT { ',' IDENT }   ("debug" is dropped, as .section is) */
static void target(Parser *p)
{
	p_next(p);
	char buf[256];
	size_t n = 0;
	do {
		Tok t = p->lx.tok;
		if (t.kind != TK_IDENT) p_error(p, "expected a target name like sm_90");
		if (n + t.len + 3 > sizeof buf) p_error(p, ".target list too long");
		if (lex_is(&t, "debug")) {           /* dropped with the DWARF sections */
			p_next(p);
			continue;
		}
		if (n) buf[n++] = ',', buf[n++] = ' ';
		memcpy(buf + n, t.s, t.len);
		n += t.len;
		p_next(p);
	} while (p_accept(p, ','));
	p->m->target = ir_intern(p->m, buf, n);
}

/* file := .file INT STRING [ ',' INT ',' INT ] */
static void file_dir(Parser *p)
{
	Module *m = p->m;
	p_next(p);
	Tok t = p->lx.tok;
	int64_t idx = p_int(p, "a file index");
	if (idx < 0 || idx > 65535) p_error_at(p, &t, "file index out of range");
	if (p->lx.tok.kind != TK_STR) p_error(p, "expected a file name string");
	if (idx >= m->nfile) {
		VEC_RESERVE(m->file_names, p->capfile, (size_t)idx + 1);
		memset(m->file_names + m->nfile, 0, (size_t)(idx + 1 - m->nfile) * 4);
		m->nfile = (int32_t)idx + 1;
	}
	Tok s = p->lx.tok;
	m->file_names[idx] = ir_intern(m, s.s + 1, s.len - 2);
	p_next(p);
	if (p_accept(p, ',')) {
		p_int(p, "a timestamp");
		p_expect(p, ',', "','");
		p_int(p, "a file size");
	}
}

/* loc := .loc INT INT INT { ',' (function_name IDENT ['+' INT]
 *                              | inlined_at INT INT INT) }        (dropped) */
static void loc(Parser *p)
{
	p_next(p);
	for (int i = 0; i < 3; i++) p_int(p, "a .loc number");
	while (p_accept(p, ',')) {
		Tok k = p->lx.tok;
		if (k.kind == TK_IDENT && lex_is(&k, "function_name")) {
			p_next(p);
			p_expect(p, TK_IDENT, "a name");
			if (p_accept(p, '+')) p_int(p, "an offset");
		} else if (k.kind == TK_IDENT && lex_is(&k, "inlined_at")) {
			p_next(p);
			for (int i = 0; i < 3; i++) p_int(p, "an inlined_at number");
		} else {
			p_error(p, "unknown .loc attribute");
		}
	}
}

/* section := .section NAME '{' { any token } '}'                   (dropped) */
static void section(Parser *p)
{
	Tok start = p->lx.tok;
	p_next(p);
	while (p->lx.tok.kind == TK_DIR || p->lx.tok.kind == TK_IDENT) p_next(p);
	p_expect(p, '{', "'{' after the section name");
	for (int depth = 1; depth;) {
		int k = p->lx.tok.kind;
		if (k == TK_EOF) p_error_at(p, &start, "unterminated .section");
		depth += (k == '{') - (k == '}');
		p_next(p);
	}
}

/* pragma := .pragma STRING { ',' STRING } ';' -> interned, ';'-joined */
static uint32_t pragma(Parser *p, uint32_t prev)
{
	p_next(p);
	VEC_RESERVE(p->sbuf, p->capsbuf, 1);
	size_t n = 0;
	const char *old = ir_str(p->m, prev);
	size_t ol = strlen(old);
	VEC_RESERVE(p->sbuf, p->capsbuf, ol + 1);
	memcpy(p->sbuf, old, ol);
	n = ol;
	do {
		Tok s = p->lx.tok;
		if (s.kind != TK_STR) p_error(p, "expected a string after .pragma");
		VEC_RESERVE(p->sbuf, p->capsbuf, n + s.len + 2);
		if (n) p->sbuf[n++] = ';';
		memcpy(p->sbuf + n, s.s + 1, s.len - 2);
		n += s.len - 2;
		p_next(p);
	} while (p_accept(p, ','));
	p_expect(p, ';', "';' after .pragma");
	return ir_intern(p->m, p->sbuf, n);
}

/* the module-scope function named by the current token */
static int32_t func_sym_ref(Parser *p)
{
	Tok t = p->lx.tok;
	if (t.kind != TK_IDENT) p_error(p, "expected a function name");
	const Bind *b = p_lookup(p, t.s, t.len);
	if (!b || b->kind != B_SYM || p->m->syms[b->val].kind != SYM_FUNC)
		p_error(p, "'%.*s' is not a declared function", (int)t.len, t.s);
	p_next(p);
	return b->val;
}

/* alias := .alias IDENT ',' IDENT ';' */
static void alias(Parser *p)
{
	Tok t = p->lx.tok;
	p_next(p);
	int32_t a = func_sym_ref(p);
	p_expect(p, ',', "','");
	int32_t b = func_sym_ref(p);
	p_expect(p, ';', "';'");
	if (p->m->funcs[p->m->syms[a].func].has_body)
		p_error_at(p, &t, "the alias must be a declaration without a body");
	VEC_RESERVE(p->aliases, p->capalias, (size_t)p->m->nalias + 1);
	p->aliases[p->m->nalias++] = (Alias){a, b};
}

/* ---- functions ---------------------------------------------------------- */

typedef struct Head {        /* a function header as read, before it is committed */
	Tok name;
	uint32_t attr;
	int32_t nret, nparam;    /* p->tparams[0..nret) then [nret..nret+nparam) */
	Sym *params;
	Tok *pnames;
	size_t cap;
	Func dirs;               /* performance directives */
} Head;

/* param_list := '(' [ param { ',' param } ] ')' */
static int32_t param_list(Parser *p, Head *h)
{
	int32_t n = 0;
	p_expect(p, '(', "'('");
	if (p->lx.tok.kind != ')') {
		do {
			size_t k = (size_t)(h->nret + h->nparam + n);
			VEC_RESERVE(h->params, h->cap, k + 1);
			h->pnames = xrealloc(h->pnames, h->cap * sizeof *h->pnames);
			p_param(p, &h->params[k], &h->pnames[k]);
			n++;
		} while (p_accept(p, ','));
	}
	p_expect(p, ')', "')' after the parameter list");
	return n;
}

/* dims := INT [ ',' INT [ ',' INT ] ]   (missing dimensions are 1) */
static void dims3(Parser *p, int32_t d[3], const char *what)
{
	p_next(p);
	d[0] = small_int(p, what);
	d[1] = p_accept(p, ',') ? small_int(p, what) : 1;
	d[2] = p_accept(p, ',') ? small_int(p, what) : 1;
}

/* perf := { .maxntid dims | .reqntid dims | .minnctapersm INT | .maxnreg INT
 *         | .maxclusterrank INT | .reqnctapercluster dims | .explicitcluster
 *         | .noreturn | .pragma STRING ';' } */
static void perf_directives(Parser *p, Head *h)
{
	Func *d = &h->dirs;
	for (;;) {
		if (p_is_dir(p, ".maxntid")) dims3(p, d->maxntid, "a thread count");
		else if (p_is_dir(p, ".reqntid")) dims3(p, d->reqntid, "a thread count");
		else if (p_is_dir(p, ".reqnctapercluster"))
			dims3(p, d->reqnctapercluster, "a CTA count");
		else if (p_is_dir(p, ".minnctapersm"))
			p_next(p), d->minnctapersm = small_int(p, "a CTA count");
		else if (p_is_dir(p, ".maxnreg")) p_next(p), d->maxnreg = small_int(p, "a count");
		else if (p_is_dir(p, ".maxclusterrank"))
			p_next(p), d->maxclusterrank = small_int(p, "a count");
		else if (p_is_dir(p, ".explicitcluster")) p_next(p), h->attr |= ATTR_EXPLICIT_CLUSTER;
		else if (p_is_dir(p, ".noreturn")) p_next(p), h->attr |= ATTR_NORETURN;
		else if (p_is_dir(p, ".pragma")) d->pragmas = pragma(p, d->pragmas);
		else if (p->lx.tok.kind == TK_DIR)
			p_error(p, "unsupported function directive '%.*s'", (int)p->lx.tok.len,
			        p->lx.tok.s);
		else return;
	}
}

static int same_param(const Sym *a, const Sym *b)
{
	return a->type == b->type && a->vec == b->vec && a->count == b->count &&
	       a->align == b->align && a->space == b->space;
}

static void commit_params(Parser *p, Head *h, int32_t fi, Func *f)
{
	Module *m = p->m;
	int32_t n = h->nret + h->nparam;
	int32_t *ids = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *ids);
	for (int32_t i = 0; i < n; i++) {
		ids[i] = p_new_sym(p, &h->pnames[i], SYM_PARAM, SP_PARAM);
		Sym *s = &m->syms[ids[i]];
		uint32_t name = s->name;
		*s = h->params[i];
		s->name = name, s->kind = SYM_PARAM, s->func = fi, s->scope = -1;
	}
	f->rets = ids, f->nret = h->nret;
	f->params = ids + h->nret, f->nparam = h->nparam;
}

static void copy_dirs(Func *f, const Head *h)
{
	memcpy(f->maxntid, h->dirs.maxntid, sizeof f->maxntid);
	memcpy(f->reqntid, h->dirs.reqntid, sizeof f->reqntid);
	memcpy(f->reqnctapercluster, h->dirs.reqnctapercluster, sizeof f->reqntid);
	f->minnctapersm = h->dirs.minnctapersm;
	f->maxnreg = h->dirs.maxnreg;
	f->maxclusterrank = h->dirs.maxclusterrank;
	f->pragmas = h->dirs.pragmas;
}

static int32_t new_func(Parser *p, int32_t sym, const Head *h)
{
	Module *m = p->m;
	VEC_RESERVE(m->funcs, p->capfunc, (size_t)m->nfunc + 1);
	Func *f = &m->funcs[m->nfunc];
	memset(f, 0, sizeof *f);
	f->sym = sym;
	f->attr = h->attr;
	f->line = h->name.line, f->col = h->name.col;
	copy_dirs(f, h);
	m->syms[sym].func = m->nfunc;
	m->syms[sym].attr = h->attr;
	return m->nfunc++;
}

/* an earlier declaration: check it agrees, and take the new names */
static void redeclare(Parser *p, Head *h, int32_t fi, int body)
{
	Module *m = p->m;
	Func *f = &m->funcs[fi];
	const char *why = NULL;
	if ((f->attr ^ h->attr) & ATTR_ENTRY) why = "is declared both .entry and .func";
	else if (body && f->has_body) why = "is defined twice";
	else if (f->nret != h->nret || f->nparam != h->nparam) why = "changes its parameters";
	for (int32_t i = 0; !why && i < h->nret + h->nparam; i++)
		if (!same_param(&m->syms[f->rets[i]], &h->params[i])) why = "changes its parameters";
	if (why) p_error_at(p, &h->name, "function '%.*s' %s", (int)h->name.len, h->name.s, why);
	if (!body) return;
	for (int32_t i = 0; i < h->nret + h->nparam; i++)
		m->syms[f->rets[i]].name = p_intern_tok(p, &h->pnames[i]);
	f->attr = h->attr;
	m->syms[f->sym].attr = h->attr;
	f->line = h->name.line, f->col = h->name.col;
	m->syms[f->sym].line = h->name.line, m->syms[f->sym].col = h->name.col;
	copy_dirs(f, h);
}

/* declares (or re-declares) the function of header h; returns its index */
static int32_t declare_func(Parser *p, Head *h, int body)
{
	Module *m = p->m;
	const Bind *b = p_lookup(p, h->name.s, h->name.len);
	int32_t fi;
	if (b) {
		if (b->kind != B_SYM || m->syms[b->val].kind != SYM_FUNC)
			p_error_at(p, &h->name, "redeclaration of '%.*s'", (int)h->name.len,
			           h->name.s);
		fi = m->syms[b->val].func;
		redeclare(p, h, fi, body);
		if (body) {                       /* the body's place is the function's place */
			for (size_t i = 0; i < p->nitem; i++)
				if (p->items[i].sym == b->val) p->items[i].primary = 0;
		}
		add_item(p, b->val, body, h->attr);
	} else {
		int32_t sym = p_new_sym(p, &h->name, SYM_FUNC, SP_NONE);
		fi = new_func(p, sym, h);
		p_bind(p, &h->name, B_SYM, sym);
		commit_params(p, h, fi, &m->funcs[fi]);
		add_item(p, sym, 1, h->attr);
	}
	return fi;
}

static void body(Parser *p, int32_t fi);

/* function := (.entry | .func [ '(' params ')' ]) NAME [ '(' params ')' ] perf
 *             ( ';' | body ) */
static void function(Parser *p, uint32_t attr)
{
	Head h = {.attr = attr};
	if (p_is_dir(p, ".entry")) h.attr |= ATTR_ENTRY;
	p_next(p);
	if (!(h.attr & ATTR_ENTRY) && p->lx.tok.kind == '(') h.nret = param_list(p, &h);
	if (h.nret > 1) p_error(p, "more than one return parameter");
	h.name = p->lx.tok;
	p_expect(p, TK_IDENT, "a function name");
	if (p->lx.tok.kind == '(') h.nparam = param_list(p, &h);
	perf_directives(p, &h);
	int has_body = p->lx.tok.kind == '{';
	if (!has_body) p_expect(p, ';', "';' or a function body");
	int32_t fi = declare_func(p, &h, has_body);
	free(h.params);
	free(h.pnames);
	if (has_body) body(p, fi);
}

/* proto := NAME ':' .callprototype [ '(' param ')' ] '_' '(' params ')'
 *          [ .noreturn ] ';' */
void p_call_proto(Parser *p, const Tok *name)
{
	Module *m = p->m;
	Head h = {.name = *name, .attr = ATTR_PROTO};
	p_next(p);                                     /* .callprototype */
	if (p->lx.tok.kind == '(') h.nret = param_list(p, &h);
	if (!(p->lx.tok.kind == TK_IDENT && lex_is(&p->lx.tok, "_")))
		p_error(p, "expected '_' in .callprototype");
	p_next(p);
	if (p->lx.tok.kind == '(') h.nparam = param_list(p, &h);
	if (p_is_dir(p, ".noreturn")) p_next(p), h.attr |= ATTR_NORETURN;
	p_expect(p, ';', "';'");
	int32_t sym = p_new_sym(p, name, SYM_PROTO, SP_NONE);
	int32_t fi = new_func(p, sym, &h);
	commit_params(p, &h, fi, &m->funcs[fi]);
	free(h.params);
	free(h.pnames);
	m->syms[sym].scope = p_scope_here(p);
	m->syms[sym].attr = ATTR_PROTO;
	p_bind(p, name, B_SYM, sym);
	VEC_RESERVE(p->locals, p->caplocal, p->nlocal + 1);
	p->locals[p->nlocal++] = sym;
}

/* ---- bodies ------------------------------------------------------------- */

Ins *p_emit(Parser *p, const Tok *at)
{
	VEC_RESERVE(p->ins, p->capins, p->nins + 1);
	Ins *in = &p->ins[p->nins++];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->line = at->line, in->col = at->col;
	return in;
}

static int32_t label_id(Parser *p, const Tok *t)
{
	uint32_t id = p_intern_tok(p, t);
	if (id >= p->caplabmap) {
		size_t old = p->caplabmap;
		VEC_RESERVE(p->labmap, p->caplabmap, (size_t)id + 1);
		memset(p->labmap + old, 0, (p->caplabmap - old) * sizeof *p->labmap);
	}
	if (p->labmap[id]) return p->labmap[id] - 1;
	VEC_RESERVE(p->labels, p->caplabel, p->nlabel + 1);
	VEC_RESERVE(p->labref, p->caplabref, p->nlabel + 1);
	p->labels[p->nlabel] = (Label){id, -1};
	p->labref[p->nlabel] = (LabRef){t->line, t->col};
	p->labmap[id] = (int32_t)++p->nlabel;
	return (int32_t)p->nlabel - 1;
}

int32_t p_label_ref(Parser *p, const Tok *t)
{
	return label_id(p, t);
}

/* label := NAME ':'   |   proto */
static void label(Parser *p)
{
	Tok name = p->lx.tok;
	p_next(p);
	p_next(p);                                     /* ':' */
	if (p_is_dir(p, ".callprototype")) {
		p_call_proto(p, &name);
		return;
	}
	if (p_is_dir(p, ".calltargets") || p_is_dir(p, ".branchtargets"))
		p_error(p, "unsupported directive '%.*s' (rfsim does not implement brx.idx "
		        "or calls through target lists)", (int)p->lx.tok.len, p->lx.tok.s);
	int32_t l = label_id(p, &name);
	if (p->labels[l].ins >= 0)
		p_error_at(p, &name, "duplicate label '%.*s'", (int)name.len, name.s);
	p->labels[l].ins = (int32_t)p->nins;
}

static void block_open(Parser *p)
{
	Ins *in = p_emit(p, &p->lx.tok);
	in->op = OP_SCOPE_BEGIN;
	VEC_RESERVE(p->blocks, p->capblock, p->nblock + 1);
	p->blocks[p->nblock++] = (int32_t)p->nins - 1;
	p->depth++;
	p_next(p);
}

static void block_close(Parser *p)
{
	Ins *in = p_emit(p, &p->lx.tok);
	in->op = OP_SCOPE_END;
	p->nblock--;
	scope_pop(p, p->depth - 1);
	p_next(p);
}

/* body_directive := reg_decl | var_decl | .loc ... | .pragma STRING ';' */
static void body_directive(Parser *p)
{
	if (p_is_dir(p, ".reg")) {
		p_reg_decl(p);
	} else if (p_is_dir(p, ".loc")) {
		loc(p);
	} else if (p_is_dir(p, ".pragma")) {
		VEC_RESERVE(p->bpragmas, p->capbpragma, p->nbpragma + 1);
		Pragma *g = &p->bpragmas[p->nbpragma];
		g->ins = (int32_t)p->nins;
		g->text = pragma(p, 0);
		p->nbpragma++;
	} else {
		uint32_t attr = p_linkage(p);
		Space sp = SP_NONE;
		if (p_is_dir(p, ".param")) sp = SP_PARAM;
		else if (p_is_dir(p, ".local")) sp = SP_LOCAL;
		else if (p_is_dir(p, ".shared") || p_is_dir(p, ".shared::cta")) sp = SP_SHARED;
		else if (p_is_dir(p, ".const")) sp = SP_CONST;
		else if (p_is_dir(p, ".global")) sp = SP_GLOBAL;
		if (sp == SP_NONE)
			p_error(p, "unexpected '%.*s' in a function body", (int)p->lx.tok.len,
			        p->lx.tok.s);
		p_var_decl(p, sp, attr, 0);
	}
}

static void func_begin(Parser *p, int32_t fi)
{
	const Func *f = &p->m->funcs[fi];
	p->fi = fi;
	p->nins = p->nlabel = p->nvop = p->nrdecl = p->nreg = 0;
	p->nlocal = p->nbpragma = p->nblock = 0;
	p->depth = 1;
	for (int32_t i = 0; i < f->nret + f->nparam; i++) {
		const Sym *s = &p->m->syms[f->rets[i]];
		Tok t = {.s = ir_str(p->m, s->name), .line = s->line, .col = s->col};
		t.len = (uint32_t)strlen(t.s);
		p_bind(p, &t, B_SYM, f->rets[i]);
	}
	p->depth = 2;
}

#define ARENA_COPY(m, dst, n, src, cnt) do { \
	(dst) = arena_dup((m)->arena, (src), (size_t)(cnt) * sizeof *(src)); \
	(n) = (int32_t)(cnt); } while (0)

static void func_end(Parser *p, int32_t fi)
{
	Module *m = p->m;
	for (size_t i = 0; i < p->nlabel; i++) {
		if (p->labels[i].ins >= 0) continue;
		Tok t = {.line = p->labref[i].line, .col = p->labref[i].col};
		p_error_at(p, &t, "undefined label '%s'", ir_str(m, p->labels[i].name));
	}
	for (size_t i = 0; i < p->nlabel; i++) p->labmap[p->labels[i].name] = 0;
	Func *f = &m->funcs[fi];
	f->has_body = 1;
	ARENA_COPY(m, f->ins, f->nins, p->ins, p->nins);
	ARENA_COPY(m, f->labels, f->nlabel, p->labels, p->nlabel);
	ARENA_COPY(m, f->vops, f->nvop, p->vops, p->nvop);
	ARENA_COPY(m, f->rdecl, f->nrdecl, p->rdecl, p->nrdecl);
	ARENA_COPY(m, f->regtype, f->nreg, p->regtype, p->nreg);
	ARENA_COPY(m, f->locals, f->nlocal, p->locals, p->nlocal);
	ARENA_COPY(m, f->bpragmas, f->nbpragma, p->bpragmas, p->nbpragma);
	scope_pop(p, 0);
	p->fi = -1;
}

/* body := '{' { statement } '}'
 * statement := '{' | '}' | label | body_directive | instruction */
static void body(Parser *p, int32_t fi)
{
	Tok open = p->lx.tok;
	func_begin(p, fi);
	p_expect(p, '{', "'{'");
	for (;;) {
		Tok t = p->lx.tok;
		if (t.kind == '{') {
			block_open(p);
		} else if (t.kind == '}') {
			if (!p->nblock) break;
			block_close(p);
		} else if (t.kind == TK_IDENT && lex_peek(&p->lx).kind == ':') {
			label(p);
		} else if (t.kind == TK_DIR) {
			body_directive(p);
		} else if (t.kind == TK_IDENT || t.kind == '@') {
			p_instruction(p);
		} else if (t.kind == TK_EOF) {
			p_error_at(p, &open, "unterminated function body (missing '}')");
		} else {
			char buf[64];
			p_error(p, "expected an instruction, found %s", tok_desc(&t, buf, sizeof buf));
		}
	}
	p_next(p);
	func_end(p, fi);
}

/* ---- the module ----------------------------------------------------------- */

static void unsupported_decl(Parser *p)
{
	p_error(p, "unsupported declaration '%.*s' (rfsim does not implement textures, "
	        "surfaces or samplers)", (int)p->lx.tok.len, p->lx.tok.s);
}

static void declaration(Parser *p);

/* toplevel := version | target | .address_size INT | file | loc | section
 *           | pragma | declaration */
static void toplevel(Parser *p)
{
	Module *m = p->m;
	if (p_is_dir(p, ".version")) {
		version(p);
		return;
	}
	if (!m->version_major) p_error(p, "expected .version at the start of the module");
	if (p_is_dir(p, ".target")) {
		target(p);
	} else if (p_is_dir(p, ".address_size")) {
		p_next(p);
		Tok t = p->lx.tok;
		m->address_size = (int32_t)p_int(p, "an address size");
		if (m->address_size != 32 && m->address_size != 64)
			p_error_at(p, &t, ".address_size must be 32 or 64");
	} else if (p_is_dir(p, ".file")) {
		file_dir(p);
	} else if (p_is_dir(p, ".loc")) {
		loc(p);
	} else if (p_is_dir(p, ".section")) {
		section(p);
	} else if (p_is_dir(p, ".pragma")) {
		m->pragmas = pragma(p, m->pragmas);
	} else {
		declaration(p);
	}
}

/* declaration := alias | linkage (function | var_decl) */
static void declaration(Parser *p)
{
	Module *m = p->m;
	if (!m->target) p_error(p, "expected .target before the first declaration");
	if (p_is_dir(p, ".alias")) {
		alias(p);
		return;
	}
	uint32_t attr = p_linkage(p);
	if (p_is_dir(p, ".entry") || p_is_dir(p, ".func")) {
		function(p, attr);
		return;
	}
	Space sp = SP_NONE;
	if (p_is_dir(p, ".global")) sp = SP_GLOBAL;
	else if (p_is_dir(p, ".shared") || p_is_dir(p, ".shared::cta")) sp = SP_SHARED;
	else if (p_is_dir(p, ".const")) sp = SP_CONST;
	else if (p_is_dir(p, ".local")) sp = SP_LOCAL;
	else if (p_is_dir(p, ".tex") || p_is_dir(p, ".texref") || p_is_dir(p, ".surfref") ||
	         p_is_dir(p, ".samplerref"))
		unsupported_decl(p);
	if (sp == SP_NONE) {
		char buf[64];
		p_error(p, "expected a directive or declaration, found %s",
		        tok_desc(&p->lx.tok, buf, sizeof buf));
	}
	int32_t first = m->nsym;
	p_var_decl(p, sp, attr, 1);
	for (int32_t s = first; s < m->nsym; s++) add_item(p, s, 1, attr);
}

/* globals = primary items; the others become forward declarations */
static void finish_module(Parser *p)
{
	Module *m = p->m;
	if (!m->version_major) {
		Tok t = p->lx.tok;
		p_error_at(p, &t, "empty module (no .version)");
	}
	if (!m->address_size) m->address_size = 32;   /* the PTX default */
	int32_t *globals = arena_alloc(m->arena, (p->nitem + 1) * sizeof *globals);
	FwdDecl *fwd = arena_alloc(m->arena, (p->nitem + 1) * sizeof *fwd);
	for (size_t i = 0; i < p->nitem; i++) {
		const Item *it = &p->items[i];
		if (it->primary) globals[m->nglobal++] = it->sym;
		else fwd[m->nfwd++] = (FwdDecl){m->nglobal, it->sym, it->attr};
	}
	m->globals = globals, m->fwd = fwd;
	Sym *syms = arena_dup(m->arena, m->syms, (size_t)m->nsym * sizeof *syms);
	Func *funcs = arena_dup(m->arena, m->funcs, (size_t)m->nfunc * sizeof *funcs);
	uint32_t *files = arena_dup(m->arena, m->file_names, (size_t)m->nfile * 4);
	Alias *al = arena_dup(m->arena, p->aliases, (size_t)m->nalias * sizeof *al);
	free(m->syms), free(m->funcs), free(m->file_names);
	m->syms = syms, m->funcs = funcs, m->file_names = files, m->aliases = al;
}

static void parser_free(Parser *p, int module_arrays)
{
	if (module_arrays) {
		free(p->m->syms), free(p->m->funcs), free(p->m->file_names);
		p->m->syms = NULL, p->m->funcs = NULL, p->m->file_names = NULL;
	}
	free(p->items), free(p->aliases), free(p->head), free(p->binds);
	free(p->ins), free(p->labels), free(p->labref), free(p->labmap), free(p->vops);
	free(p->rdecl), free(p->regtype), free(p->locals), free(p->bpragmas), free(p->blocks);
	free(p->sbuf), free(p->ielems);
	free(p);
}

Module *ptx_parse(const char *text, size_t len, const char *filename)
{
	Parser *p = xcalloc(1, sizeof *p);
	Module *m = ir_new(filename);
	p->m = m;
	p->file = m->filename;
	p->fi = -1;
	if (setjmp(p->fail)) {
		parser_free(p, 1);
		ir_free(m);
		return NULL;
	}
	lex_init(&p->lx, text ? text : "", text ? len : 0);
	if (p->lx.tok.kind == TK_ERR) p_error(p, "%s", p->lx.err);
	while (p->lx.tok.kind != TK_EOF) toplevel(p);
	finish_module(p);
	parser_free(p, 0);
	return m;
}
