/*
 * print.c -- IR back to PTX text.
 *
 * The output is PTX that ptxas assembles and that ptx_parse reads back to
 * an equal module (ir_equal): every id is recreated in the same order, so
 * things are written in the order the parser met them -- module items in
 * Module.globals order with the forward declarations of Module.fwd in
 * between, instructions in order with their labels and statement pragmas
 * in front, and each block's declarations right after its `{` (the
 * parser numbers registers and symbols per declaration, and a block's
 * declarations keep their relative order).
 *
 * Modifiers are written in the order of the PTX ISA syntax lines (ptxas
 * reads some multi-part mnemonics only that way: mad.lo.cc, cvta.to.global,
 * shf.l.wrap, bar.warp.sync, div.full), and immediates in a spelling of the
 * same class they were read in (0f/0d bit patterns for floats, hex for hex).
 * What the parser dropped (comments, .loc, DWARF sections, kernel-parameter
 * pointer attributes) does not come back.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "ptx.h"

typedef struct Out {
	const Module *m;
	FILE *f;
} Out;

static const char *name_of(const Out *o, int32_t sym)
{
	return ir_str(o->m, o->m->syms[sym].name);
}

static void linkage(Out *o, uint32_t attr)
{
	if (attr & ATTR_VISIBLE) fputs(".visible ", o->f);
	if (attr & ATTR_EXTERN) fputs(".extern ", o->f);
	if (attr & ATTR_WEAK) fputs(".weak ", o->f);
	if (attr & ATTR_COMMON) fputs(".common ", o->f);
}

/* ---- variables ------------------------------------------------------------ */

static void put_elem(Out *o, PtxType t, const uint8_t *p)
{
	int n = ptxtype_size(t);
	uint64_t v = 0;
	for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
	if (t == PT_F32) fprintf(o->f, "0f%08" PRIX64, v);
	else if (t == PT_F64) fprintf(o->f, "0d%016" PRIX64, v);
	else if (ptxtype_is_float(t)) fprintf(o->f, "0x%" PRIX64, v);
	else if (ptxtype_is_signed(t) && n < 8 && (v >> (8 * n - 1)))
		fprintf(o->f, "%" PRId64, (int64_t)(v - ((uint64_t)1 << (8 * n))));
	else if (ptxtype_is_signed(t)) fprintf(o->f, "%" PRId64, (int64_t)v);
	else fprintf(o->f, "%" PRIu64, v);
}

static void put_addr(Out *o, const SymInit *s)
{
	if (s->generic) fprintf(o->f, "generic(%s)", name_of(o, s->sym));
	else fputs(name_of(o, s->sym), o->f);
	if (s->addend) fprintf(o->f, "%+" PRId64, s->addend);
}

/* element j of the initializer: a value, an address, or one byte of one */
static void put_init_elem(Out *o, const Sym *s, int64_t j, const int32_t *cover)
{
	int es = ptxtype_size((PtxType)s->type);
	if (cover[j] < 0) {
		put_elem(o, (PtxType)s->type, s->init + j * es);
		return;
	}
	const SymInit *si = &s->isyms[cover[j]];
	if (es == si->size) {
		put_addr(o, si);
		return;
	}
	fprintf(o->f, "0x%" PRIX64 "(", (uint64_t)0xFF << (8 * (j - si->offset)));
	put_addr(o, si);
	fputc(')', o->f);
}

static void initializer(Out *o, const Sym *s)
{
	int es = ptxtype_size((PtxType)s->type);
	int64_t per = s->vec ? s->vec : 1, nel = (s->count > 0 ? s->count : 1) * per;
	int32_t *cover = xmalloc((size_t)nel * sizeof *cover);
	for (int64_t j = 0; j < nel; j++) cover[j] = -1;
	for (int32_t k = 0; k < s->init_nsym; k++) {
		const SymInit *si = &s->isyms[k];
		for (int64_t b = 0; b < si->size; b += es) cover[(si->offset + b) / es] = k;
	}
	int64_t last = nel;                       /* trim trailing zeros */
	if (!s->vec) {
		while (last > 1 && cover[last - 1] < 0) {
			const uint8_t *q = s->init + (last - 1) * es;
			int zero = 1;
			for (int i = 0; i < es; i++) zero &= !q[i];
			if (!zero) break;
			last--;
		}
	}
	fputs(" = ", o->f);
	int braces = s->count || s->vec;
	if (braces) fputc('{', o->f);
	for (int64_t j = 0; j < last; j++) {
		if (j) fputs(", ", o->f);
		if (s->vec && s->count && j % per == 0) fputc('{', o->f);
		put_init_elem(o, s, j, cover);
		if (s->vec && s->count && j % per == per - 1) fputc('}', o->f);
	}
	if (braces) fputc('}', o->f);
	free(cover);
}

/* spec NAME[count] without the space: .align .vN .type */
static void var_body(Out *o, const Sym *s)
{
	if (s->align) fprintf(o->f, " .align %u", s->align);
	if (s->vec) fprintf(o->f, " .v%d", s->vec);
	fprintf(o->f, " .%s %s", ptxtype_name[s->type], ir_str(o->m, s->name));
	if (s->count > 0) fprintf(o->f, "[%" PRId64 "]", s->count);
	else if (s->count < 0) fputs("[]", o->f);
}

static void variable(Out *o, const Sym *s, const char *indent)
{
	fputs(indent, o->f);
	linkage(o, s->attr);
	fprintf(o->f, ".%s", space_name[s->space]);
	var_body(o, s);
	if (s->init) initializer(o, s);
	fputs(";\n", o->f);
}

/* ---- function headers ----------------------------------------------------- */

static void param_list(Out *o, const int32_t *ids, int32_t n, int nl)
{
	fputc('(', o->f);
	for (int32_t i = 0; i < n; i++) {
		fputs(i ? (nl ? ",\n\t" : ", ") : (nl ? "\n\t" : ""), o->f);
		fputs(".param", o->f);
		var_body(o, &o->m->syms[ids[i]]);
	}
	fputs(n && nl ? "\n)" : ")", o->f);
}

static void dims3(Out *o, const char *dir, const int32_t d[3])
{
	if (d[0] || d[1] || d[2]) fprintf(o->f, "%s %d, %d, %d\n", dir, d[0], d[1], d[2]);
}

static void pragmas(Out *o, uint32_t text, const char *indent)
{
	const char *s = ir_str(o->m, text);
	while (*s) {
		const char *e = strchr(s, ';');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		fprintf(o->f, "%s.pragma \"%.*s\";\n", indent, (int)n, s);
		s += n + (e != NULL);
	}
}

static void func_head(Out *o, const Func *fn, uint32_t attr)
{
	linkage(o, attr);
	fputs(attr & ATTR_ENTRY ? ".entry " : ".func ", o->f);
	if (fn->nret) {
		param_list(o, fn->rets, fn->nret, 0);
		fputc(' ', o->f);
	}
	fputs(name_of(o, fn->sym), o->f);
	param_list(o, fn->params, fn->nparam, 1);
	fputc('\n', o->f);
	dims3(o, ".maxntid", fn->maxntid);
	dims3(o, ".reqntid", fn->reqntid);
	if (fn->minnctapersm) fprintf(o->f, ".minnctapersm %d\n", fn->minnctapersm);
	if (fn->maxnreg) fprintf(o->f, ".maxnreg %d\n", fn->maxnreg);
	dims3(o, ".reqnctapercluster", fn->reqnctapercluster);
	if (fn->maxclusterrank) fprintf(o->f, ".maxclusterrank %d\n", fn->maxclusterrank);
	if (fn->attr & ATTR_EXPLICIT_CLUSTER) fputs(".explicitcluster\n", o->f);
	if (attr & ATTR_NORETURN) fputs(".noreturn\n", o->f);
	pragmas(o, fn->pragmas, "");
}

static void proto_decl(Out *o, const Sym *s, const char *indent)
{
	const Func *fn = &o->m->funcs[s->func];
	fprintf(o->f, "%s%s: .callprototype ", indent, ir_str(o->m, s->name));
	param_list(o, fn->rets, fn->nret, 0);
	fputs(" _ ", o->f);
	param_list(o, fn->params, fn->nparam, 0);
	if (fn->attr & ATTR_NORETURN) fputs(" .noreturn", o->f);
	fputs(";\n", o->f);
}

/* ---- instructions ---------------------------------------------------------- */

static void put_mods(Out *o, uint32_t mods, uint32_t which)
{
	static const struct { uint32_t bit; const char *s; } names[] = {
		{MOD_WEAK, "weak"}, {MOD_VOLATILE, "volatile"}, {MOD_MMIO, "mmio"},
		{MOD_RELAXED, "relaxed"}, {MOD_ACQUIRE, "acquire"}, {MOD_RELEASE, "release"},
		{MOD_ACQ_REL, "acq_rel"}, {MOD_SC, "sc"}, {MOD_TO, "to"}, {MOD_WARP, "warp"},
		{MOD_CC, "cc"}, {MOD_APPROX, "approx"}, {MOD_FULL, "full"}, {MOD_FTZ, "ftz"},
		{MOD_NOFTZ, "noftz"}, {MOD_SAT, "sat"}, {MOD_RELU, "relu"}, {MOD_NAN, "NaN"},
		{MOD_XORSIGN, "xorsign"}, {MOD_ABS, "abs"}, {MOD_WRAP, "wrap"},
		{MOD_CLAMP, "clamp"}, {MOD_SHIFTAMT, "shiftamt"}, {MOD_UNI, "uni"},
		{MOD_ALIGNED, "aligned"}, {MOD_SYNC, "sync"}, {MOD_NC, "nc"},
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (mods & which & names[i].bit) fprintf(o->f, ".%s", names[i].s);
}

static void put(Out *o, const char *s)
{
	if (*s) fprintf(o->f, ".%s", s);
}

enum {
	SEM = MOD_WEAK | MOD_VOLATILE | MOD_MMIO | MOD_RELAXED | MOD_ACQUIRE | MOD_RELEASE |
	      MOD_ACQ_REL | MOD_SC,
};

static void mnemonic(Out *o, const Ins *in)
{
	Op op = (Op)in->op;
	uint32_t mods = in->mods;
	int mem = (op_info[op].flags & OPF_MEM) || op == OP_MEMBAR || op == OP_FENCE;
	int bar = op == OP_BAR || op == OP_BARRIER;
	int early_sync = op == OP_SHFL || op == OP_VOTE || op == OP_REDUX;
	fputs(op_info[op].name, o->f);
	if (mem) {
		put_mods(o, mods, SEM);
		put(o, mode_name[in->mode]);
		mods &= ~(uint32_t)SEM;
	}
	put_mods(o, mods, MOD_TO | MOD_WARP);
	put(o, space_name[in->space]);
	put_mods(o, mods, MOD_NC);
	if (in->hints) fputs(ir_str(o->m, in->hints), o->f);
	if (early_sync) put_mods(o, mods, MOD_SYNC);
	if (!mem) put(o, mode_name[in->mode]);
	if (bar) put(o, atomop_name[in->aop]);
	put_mods(o, mods, MOD_CC);
	put(o, cmp_name[in->cmp]);
	if (in->bop) put(o, in->bop == BOP_AND ? "and" : in->bop == BOP_OR ? "or" : "xor");
	if (!bar) put(o, atomop_name[in->aop]);
	put(o, rnd_name[in->rnd]);
	put_mods(o, mods & ~(uint32_t)(MOD_TO | MOD_WARP | MOD_NC | MOD_CC |
	                                (early_sync ? MOD_SYNC : 0)), ~(uint32_t)0);
	if (in->vec) fprintf(o->f, ".v%d", in->vec);
	if (op == OP_SET) {
		put(o, ptxtype_name[in->type2]);
		put(o, ptxtype_name[in->type]);
	} else {
		put(o, ptxtype_name[in->type]);
		put(o, ptxtype_name[in->type2]);
	}
}

static void operand(Out *o, const Func *fn, const Operand *x)
{
	char buf[128];
	const Module *m = o->m;
	if (x->flags & OPDF_NEG) fputc('!', o->f);
	switch ((OpdKind)x->kind) {
	case OPK_REG: fputs(ir_regname(m, fn, x->reg, buf, sizeof buf), o->f); break;
	case OPK_IMM:
		if (x->flags & OPDF_F32LIT) fprintf(o->f, "0f%08" PRIX32, (uint32_t)x->imm);
		else if (x->flags & OPDF_F64LIT) fprintf(o->f, "0d%016" PRIX64, (uint64_t)x->imm);
		else if ((x->flags & OPDF_HEXLIT) && x->imm < 0)
			fprintf(o->f, "-0x%" PRIX64, (uint64_t)0 - (uint64_t)x->imm);
		else if (x->flags & OPDF_HEXLIT) fprintf(o->f, "0x%" PRIX64, (uint64_t)x->imm);
		else fprintf(o->f, "%" PRId64, x->imm);
		break;
	case OPK_SREG:
		fprintf(o->f, "%%%s", sreg_name[x->reg]);
		if (x->reg == SR_ENVREG || x->reg == SR_PM) fprintf(o->f, "%d", x->comp);
		else if (x->comp) fprintf(o->f, ".%c", 'x' + x->comp - 1);
		break;
	case OPK_SYM:
		fputs(name_of(o, x->reg), o->f);
		if (x->imm) fprintf(o->f, "%+" PRId64, x->imm);
		break;
	case OPK_LABEL: fputs(ir_str(m, fn->labels[x->reg].name), o->f); break;
	case OPK_ADDR:
		fputc('[', o->f);
		if (x->flags & OPDF_SYMBASE) fputs(name_of(o, x->reg), o->f);
		else if (x->reg >= 0) fputs(ir_regname(m, fn, x->reg, buf, sizeof buf), o->f);
		if (x->reg < 0) fprintf(o->f, "%" PRId64, x->imm);
		else if (x->imm) fprintf(o->f, "+%" PRId64, x->imm);
		fputc(']', o->f);
		break;
	case OPK_SINK: fputc('_', o->f); break;
	case OPK_VEC:
		fputc('{', o->f);
		for (int i = 0; i < x->n; i++) {
			if (i) fputs(", ", o->f);
			operand(o, fn, &fn->vops[x->reg + i]);
		}
		fputc('}', o->f);
		break;
	case OPK_NONE: case NOPK: fputs("<none>", o->f); break;
	}
}

static void call_args(Out *o, const Func *fn, const Operand *x)
{
	fputc('(', o->f);
	for (int i = 0; i < x->n; i++) {
		if (i) fputs(", ", o->f);
		operand(o, fn, &fn->vops[x->reg + i]);
	}
	fputc(')', o->f);
}

static void instruction(Out *o, const Func *fn, const Ins *in)
{
	char buf[128];
	fputc('\t', o->f);
	if (in->guard >= 0)
		fprintf(o->f, "@%s%s ", in->guard_neg ? "!" : "",
		        ir_regname(o->m, fn, in->guard, buf, sizeof buf));
	mnemonic(o, in);
	for (int k = 0; k < in->nd + in->ns; k++) {
		const Operand *x = &in->o[k];
		fputs(k == 0 ? " " : (x->flags & OPDF_PIPE) ? "|" : ", ", o->f);
		if (in->op == OP_CALL && x->kind == OPK_VEC) call_args(o, fn, x);
		else operand(o, fn, x);
	}
	fputs(";\n", o->f);
}

/* ---- bodies --------------------------------------------------------------- */

typedef struct Decls {       /* a function's declarations grouped by block */
	int32_t *first;          /* nins + 1 slots: block (SCOPE_BEGIN index + 1) -> start */
	int32_t *order;          /* rdecl indexes (>= 0) and ~locals indexes (< 0) */
} Decls;

static int32_t scope_of(const Out *o, const Func *fn, int32_t d)
{
	return d >= 0 ? fn->rdecl[d].scope : o->m->syms[fn->locals[~d]].scope;
}

static Decls group_decls(const Out *o, const Func *fn)
{
	Decls g;
	int32_t n = fn->nrdecl + fn->nlocal;
	g.first = xcalloc((size_t)fn->nins + 2, sizeof *g.first);
	g.order = xmalloc((size_t)n * sizeof *g.order + 1);
	for (int32_t i = 0; i < n; i++) {
		int32_t d = i < fn->nrdecl ? i : ~(i - fn->nrdecl);
		g.first[scope_of(o, fn, d) + 1 + 1]++;
	}
	for (int32_t b = 1; b <= fn->nins + 1; b++) g.first[b] += g.first[b - 1];
	int32_t *fill = xmalloc(((size_t)fn->nins + 2) * sizeof *fill);
	memcpy(fill, g.first, ((size_t)fn->nins + 2) * sizeof *fill);
	for (int32_t i = 0; i < n; i++) {
		int32_t d = i < fn->nrdecl ? i : ~(i - fn->nrdecl);
		g.order[fill[scope_of(o, fn, d) + 1]++] = d;
	}
	free(fill);
	return g;
}

static void block_decls(Out *o, const Func *fn, const Decls *g, int32_t scope)
{
	for (int32_t k = g->first[scope + 1]; k < g->first[scope + 2]; k++) {
		int32_t d = g->order[k];
		if (d >= 0) {
			const RegDecl *r = &fn->rdecl[d];
			fputs("\t.reg", o->f);
			if (r->vec) fprintf(o->f, " .v%d", r->vec);
			fprintf(o->f, " .%s %s", ptxtype_name[r->type], ir_str(o->m, r->name));
			if (r->count) fprintf(o->f, "<%d>", r->count);
			fputs(";\n", o->f);
			continue;
		}
		const Sym *s = &o->m->syms[fn->locals[~d]];
		if (s->kind == SYM_PROTO) proto_decl(o, s, "\t");
		else variable(o, s, "\t");
	}
}

static void body(Out *o, const Func *fn)
{
	Decls g = group_decls(o, fn);
	int32_t *lab = xmalloc(((size_t)fn->nins + 2) * sizeof *lab);  /* first label at i */
	int32_t *nextlab = xmalloc(((size_t)fn->nlabel + 1) * sizeof *nextlab);
	for (int32_t i = 0; i <= fn->nins; i++) lab[i] = -1;
	for (int32_t l = fn->nlabel - 1; l >= 0; l--) {
		int32_t at = fn->labels[l].ins;
		nextlab[l] = lab[at];
		lab[at] = l;
	}
	fputs("{\n", o->f);
	block_decls(o, fn, &g, -1);
	int32_t pg = 0;
	for (int32_t i = 0; i <= fn->nins; i++) {
		for (int32_t l = lab[i]; l >= 0; l = nextlab[l])
			fprintf(o->f, "%s:\n", ir_str(o->m, fn->labels[l].name));
		for (; pg < fn->nbpragma && fn->bpragmas[pg].ins <= i; pg++)
			pragmas(o, fn->bpragmas[pg].text, "\t");
		if (i == fn->nins) break;
		const Ins *in = &fn->ins[i];
		if (in->op == OP_SCOPE_BEGIN) {
			fputs("\t{\n", o->f);
			block_decls(o, fn, &g, i);
		} else if (in->op == OP_SCOPE_END) {
			fputs("\t}\n", o->f);
		} else {
			instruction(o, fn, in);
		}
	}
	fputs("}\n", o->f);
	free(lab), free(nextlab), free(g.first), free(g.order);
}

/* ---- the module ----------------------------------------------------------- */

static void func_item(Out *o, int32_t sym, uint32_t attr, int with_body)
{
	const Func *fn = &o->m->funcs[o->m->syms[sym].func];
	func_head(o, fn, attr);
	if (with_body && fn->has_body) body(o, fn);
	else fputs(";\n", o->f);
}

static void fwd_decls(Out *o, int32_t *k, int32_t before)
{
	const Module *m = o->m;
	for (; *k < m->nfwd && m->fwd[*k].before == before; (*k)++)
		func_item(o, m->fwd[*k].sym, m->fwd[*k].attr, 0);
}

void ptx_print(const Module *m, FILE *f)
{
	Out o = {m, f};
	fprintf(f, "//\n// printed by rfsim\n//\n\n.version %d.%d\n.target %s\n"
	        ".address_size %d\n\n", m->version_major, m->version_minor,
	        ir_str(m, m->target), m->address_size);
	for (int32_t i = 0; i < m->nfile; i++)
		if (m->file_names[i]) fprintf(f, ".file %d \"%s\"\n", i, ir_str(m, m->file_names[i]));
	pragmas(&o, m->pragmas, "");
	int32_t k = 0;
	for (int32_t i = 0; i < m->nglobal; i++) {
		fwd_decls(&o, &k, i);
		const Sym *s = &m->syms[m->globals[i]];
		if (s->kind == SYM_FUNC) func_item(&o, m->globals[i], s->attr, 1);
		else variable(&o, s, "");
	}
	fwd_decls(&o, &k, m->nglobal);
	for (int32_t i = 0; i < m->nalias; i++)
		fprintf(f, ".alias %s, %s;\n", name_of(&o, m->aliases[i].sym),
		        name_of(&o, m->aliases[i].target));
}

char *ptx_print_str(const Module *m, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f) die("open_memstream failed");
	ptx_print(m, f);
	fclose(f);
	if (len) *len = n;
	return buf;
}
