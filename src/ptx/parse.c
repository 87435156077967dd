/*
 * parse.c -- PTX text to IR: the module level, and the parser's services.
 *
 * A recursive-descent parser over the tokens of lex.c, one function per
 * grammar rule, each opening with its rule.  This file reads the module
 * header and module-scope directives and owns the error path, the token
 * helpers and the scope table (parse.h); functions and bodies are in
 * parse_func.c, declarations in parse_decl.c, instructions in
 * parse_ins.c.
 *
 * What is kept and what is dropped (ir.h says where things go):
 *   kept     .version .target .address_size, .file names, module and
 *            statement .pragma strings, function directives (.maxntid
 *            .reqntid .minnctapersm .maxnreg .maxclusterrank
 *            .reqnctapercluster .explicitcluster .noreturn), linkage,
 *            forward declarations, .alias, .callprototype signatures
 *   dropped  .loc (with function_name/inlined_at), .section blocks (DWARF)
 *            and the `debug` target option that requires them, attributes
 *            of kernel parameters (.ptr .space .align)
 *   refused  texture/surface/sampler references, .reg parameters,
 *            .calltargets/.branchtargets, directives rfsim does not know
 */
#include "ptx/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ptx.h"

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

const char *p_tok_desc(const Tok *t, char *buf, size_t n)
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
	p_error(p, "expected %s, found %s", what, p_tok_desc(&p->lx.tok, buf, sizeof buf));
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
		p_error(p, "expected %s, found %s", what, p_tok_desc(&p->lx.tok, buf, sizeof buf));
	}
	uint64_t v = p->lx.tok.val;                 /* wraps like the GPU's integers */
	p_next(p);
	return (int64_t)(neg ? (uint64_t)0 - v : v);
}

/* a small non-negative count (array size, alignment, thread count) */
int32_t p_small_int(Parser *p, const char *what)
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

void p_scope_pop(Parser *p, int32_t depth)
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

void p_add_item(Parser *p, int32_t sym, int primary, uint32_t attr)
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
			p->m->debug = 1;
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
void p_loc(Parser *p)
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
uint32_t p_pragma(Parser *p, uint32_t prev)
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

/* ---- the module ----------------------------------------------------------- */

static void unsupported_decl(Parser *p)
{
	p_error(p, "unsupported declaration '%.*s' (rfsim implements texture and "
	        "surface objects, not texture, surface or sampler references)", (int)p->lx.tok.len, p->lx.tok.s);
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
		p_loc(p);
	} else if (p_is_dir(p, ".section")) {
		section(p);
	} else if (p_is_dir(p, ".pragma")) {
		m->pragmas = p_pragma(p, m->pragmas);
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
		p_function(p, attr);
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
		        p_tok_desc(&p->lx.tok, buf, sizeof buf));
	}
	int32_t first = m->nsym;
	p_var_decl(p, sp, attr, 1);
	for (int32_t s = first; s < m->nsym; s++) p_add_item(p, s, 1, attr);
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
	free(p->labslot), free(p->labprev), free(p->bparent);
	free(p->rdecl), free(p->regtype), free(p->locals), free(p->bpragmas), free(p->blocks);
	free(p->sbuf), free(p->ielems), free(p->tparams), free(p->tnames);
	free(p);
}

Module *ptx_parse(const char *text, size_t len, const char *filename)
{
	Parser *p = xcalloc(1, sizeof *p);
	pins_init(p);
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
