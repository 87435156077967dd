/*
 * parse_func.c -- PTX functions: headers, declarations and definitions,
 * .callprototype signatures, and bodies (blocks, labels, statements).
 *
 * A function may be declared several times and defined once; every
 * declaration must agree with the first (kind, parameter types, sizes
 * and alignments), and the definition's parameter names are the ones
 * kept.  Module.globals holds the function where its body is (its first
 * declaration if it has none) and Module.fwd the other declarations, so
 * that the printer writes them back where they were.
 *
 * A body is a flat list of instructions; `{ }` blocks become SCOPE_BEGIN
 * and SCOPE_END pseudo instructions and open a scope for registers,
 * variables and labels.  Labels are scoped by block, as ptxas scopes them
 * (inline asm pasted twice into one function defines the same label in
 * two blocks).  Label ids are given at definition, in text order; a
 * branch records a LabRef whose index stands in the operand until the
 * function ends and each reference is resolved from its block outwards.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "ptx/parse.h"

/* ---- functions ---------------------------------------------------------- */

typedef struct Head {        /* a function header as read, before it is committed */
	Tok name;
	uint32_t attr;
	int32_t nret, nparam;    /* params[0..nret) then [nret..nret+nparam) */
	Sym *params;             /* Parser.tparams, Parser.tnames */
	Tok *pnames;
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
			VEC_RESERVE(p->tparams, p->captparam, k + 1);
			VEC_RESERVE(p->tnames, p->captname, k + 1);
			h->params = p->tparams, h->pnames = p->tnames;
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
	d[0] = p_small_int(p, what);
	d[1] = p_accept(p, ',') ? p_small_int(p, what) : 1;
	d[2] = p_accept(p, ',') ? p_small_int(p, what) : 1;
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
			p_next(p), d->minnctapersm = p_small_int(p, "a CTA count");
		else if (p_is_dir(p, ".maxnreg")) p_next(p), d->maxnreg = p_small_int(p, "a count");
		else if (p_is_dir(p, ".maxclusterrank"))
			p_next(p), d->maxclusterrank = p_small_int(p, "a count");
		else if (p_is_dir(p, ".explicitcluster")) p_next(p), h->attr |= ATTR_EXPLICIT_CLUSTER;
		else if (p_is_dir(p, ".noreturn")) p_next(p), h->attr |= ATTR_NORETURN;
		else if (p_is_dir(p, ".pragma")) d->pragmas = p_pragma(p, d->pragmas);
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
		p_add_item(p, b->val, body, h->attr);
	} else {
		int32_t sym = p_new_sym(p, &h->name, SYM_FUNC, SP_NONE);
		fi = new_func(p, sym, h);
		p_bind(p, &h->name, B_SYM, sym);
		commit_params(p, h, fi, &m->funcs[fi]);
		p_add_item(p, sym, 1, h->attr);
	}
	return fi;
}

static void body(Parser *p, int32_t fi);

/* function := (.entry | .func [ '(' params ')' ]) NAME [ '(' params ')' ] perf
 *             ( ';' | body ) */
void p_function(Parser *p, uint32_t attr)
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

static int32_t cur_slot(const Parser *p)
{
	return p->nblock ? p->blocks[p->nblock - 1] + 1 : 0;
}

int32_t p_label_ref(Parser *p, const Tok *t)
{
	VEC_RESERVE(p->labref, p->caplabref, p->nlabref + 1);
	p->labref[p->nlabref] = (LabRef){p_intern_tok(p, t), cur_slot(p), t->line, t->col};
	return (int32_t)p->nlabref++;
}

static void label_define(Parser *p, const Tok *t)
{
	uint32_t id = p_intern_tok(p, t);
	int32_t slot = cur_slot(p);
	if (id >= p->caplabmap) {
		size_t old = p->caplabmap;
		VEC_RESERVE(p->labmap, p->caplabmap, (size_t)id + 1);
		memset(p->labmap + old, 0, (p->caplabmap - old) * sizeof *p->labmap);
	}
	for (int32_t l = p->labmap[id] - 1; l >= 0; l = p->labprev[l])
		if (p->labslot[l] == slot)
			p_error_at(p, t, "duplicate label '%.*s'", (int)t->len, t->s);
	size_t cap = p->caplabel;
	VEC_RESERVE(p->labels, p->caplabel, p->nlabel + 1);
	if (cap != p->caplabel) {
		p->labslot = xrealloc(p->labslot, p->caplabel * sizeof *p->labslot);
		p->labprev = xrealloc(p->labprev, p->caplabel * sizeof *p->labprev);
	}
	p->labels[p->nlabel] = (Label){id, (int32_t)p->nins};
	p->labslot[p->nlabel] = slot;
	p->labprev[p->nlabel] = p->labmap[id] - 1;
	p->labmap[id] = (int32_t)++p->nlabel;
}

/* the label a reference names, seen from its block outwards */
static int32_t label_resolve(Parser *p, const LabRef *r)
{
	if (r->name < p->caplabmap)
		for (int32_t slot = r->slot; slot >= 0; slot = slot ? p->bparent[slot] : -1)
			for (int32_t l = p->labmap[r->name] - 1; l >= 0; l = p->labprev[l])
				if (p->labslot[l] == slot) return l;
	Tok t = {.line = r->line, .col = r->col};
	p_error_at(p, &t, "undefined label '%s'", ir_str(p->m, r->name));
}

static void labels_resolve(Parser *p)
{
	for (size_t i = 0; i < p->nins; i++) {
		Ins *in = &p->ins[i];
		for (int k = 0; k < in->nd + in->ns; k++)
			if (in->o[k].kind == OPK_LABEL)
				in->o[k].reg = label_resolve(p, &p->labref[in->o[k].reg]);
	}
	for (size_t i = 0; i < p->nlabel; i++) p->labmap[p->labels[i].name] = 0;
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
	label_define(p, &name);
}

static void block_open(Parser *p)
{
	Ins *in = p_emit(p, &p->lx.tok);
	in->op = OP_SCOPE_BEGIN;
	VEC_RESERVE(p->bparent, p->capbparent, p->nins + 1);
	p->bparent[p->nins] = cur_slot(p);
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
	p_scope_pop(p, p->depth - 1);
	p_next(p);
}

/* body_directive := reg_decl | var_decl | .loc ... | .pragma STRING ';' */
static void body_directive(Parser *p)
{
	if (p_is_dir(p, ".reg")) {
		p_reg_decl(p);
	} else if (p_is_dir(p, ".loc")) {
		p_loc(p);
	} else if (p_is_dir(p, ".pragma")) {
		VEC_RESERVE(p->bpragmas, p->capbpragma, p->nbpragma + 1);
		Pragma *g = &p->bpragmas[p->nbpragma];
		g->ins = (int32_t)p->nins;
		g->text = p_pragma(p, 0);
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
	p->nins = p->nlabel = p->nlabref = p->nvop = p->nrdecl = p->nreg = 0;
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
	labels_resolve(p);
	Func *f = &m->funcs[fi];
	f->has_body = 1;
	ARENA_COPY(m, f->ins, f->nins, p->ins, p->nins);
	ARENA_COPY(m, f->labels, f->nlabel, p->labels, p->nlabel);
	ARENA_COPY(m, f->vops, f->nvop, p->vops, p->nvop);
	ARENA_COPY(m, f->rdecl, f->nrdecl, p->rdecl, p->nrdecl);
	ARENA_COPY(m, f->regtype, f->nreg, p->regtype, p->nreg);
	ARENA_COPY(m, f->locals, f->nlocal, p->locals, p->nlocal);
	ARENA_COPY(m, f->bpragmas, f->nbpragma, p->bpragmas, p->nbpragma);
	p_scope_pop(p, 0);
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
			p_error(p, "expected an instruction, found %s", p_tok_desc(&t, buf, sizeof buf));
		}
	}
	p_next(p);
	func_end(p, fi);
}
