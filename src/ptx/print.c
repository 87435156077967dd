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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ptx.h"

typedef struct Out {
	const Module *m;
	FILE *f;
	const char *ind;         /* indentation of the current block in a body */
} Out;

static const char *tabs(int depth)
{
	static const char t[] = "\t\t\t\t\t\t\t\t";
	return t + sizeof t - 1 - (depth < 8 ? depth : 8);
}

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
		{MOD_NOFTZ, "noftz"}, {MOD_SAT, "sat"}, {MOD_SATFINITE, "satfinite"}, {MOD_RELU, "relu"}, {MOD_NAN, "NaN"},
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

/* cp.async{.ca|.cg}.shared.global and the group commit and waits (parse_tc.c) */
static void async_mnemonic(Out *o, const Ins *in)
{
	fputs(op_info[in->op].name, o->f);
	if (in->op != OP_CP_ASYNC) return;
	fprintf(o->f, ".%s.shared.global", in->mods & MOD_CG ? "cg" : "ca");
	if (in->hints) fputs(ir_str(o->m, in->hints), o->f);
}

/* mbarrier.* and cp.async.mbarrier.arrive (parse_mbar.c) */
static void mbar_mnemonic(Out *o, const Ins *in)
{
	static const struct { uint8_t bit; const char *s; } f[] = {
		{MBF_EXPECT_TX, "expect_tx"}, {MBF_NOCOMPLETE, "noComplete"},
		{MBF_PARITY, "parity"}, {MBF_NOINC, "noinc"},
	};
	fputs(op_info[in->op].name, o->f);
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		if (in->frag & f[i].bit) put(o, f[i].s);
	if (in->hints) fputs(ir_str(o->m, in->hints), o->f);
	put(o, space_name[in->space]);
	put(o, ptxtype_name[in->type]);
}

/* ldmatrix, stmatrix (parse_tc.c) */
static void matrix_mnemonic(Out *o, const Ins *in)
{
	fputs(op_info[in->op].name, o->f);
	fprintf(o->f, ".sync.aligned.%s.x%d%s", mma_shape_name[in->shape], in->frag,
	        in->mods & MOD_TRANS ? ".trans" : "");
	put(o, space_name[in->space]);
	put(o, ptxtype_name[in->type]);
}

/* mma.sync: .satfinite before the types (parse_tc.c) */
static void mma_mnemonic(Out *o, const Ins *in)
{
	fputs(op_info[in->op].name, o->f);
	fprintf(o->f, ".sync.aligned.%s.row.col%s.%s.%s.%s.%s", mma_shape_name[in->shape],
	        in->mods & MOD_SATFINITE ? ".satfinite" : "", ptxtype_name[in->type],
	        ptxtype_name[in->type2], ptxtype_name[in->type3], ptxtype_name[in->type4]);
	put(o, rnd_name[in->rnd]);
}

/* wmma.load, .store, .mma in the PTX ISA's order (parse_tc.c) */
static void wmma_mnemonic(Out *o, const Ins *in)
{
	static const char *const lay[] = {"", "row", "col"}, *const frag[] = {"", "a", "b", "c",
	                                                                       "d"};
	fputs(op_info[in->op].name, o->f);
	put(o, frag[in->frag]);
	put_mods(o, in->mods, MOD_SYNC);
	put_mods(o, in->mods, MOD_ALIGNED);
	put(o, lay[in->layout & 15]);
	put(o, lay[in->layout >> 4]);
	put(o, mma_shape_name[in->shape]);
	put(o, space_name[in->space]);
	put(o, ptxtype_name[in->type]);
	put(o, ptxtype_name[in->type2]);
	put(o, ptxtype_name[in->type3]);
	put(o, ptxtype_name[in->type4]);
	if (in->mods & MOD_SATFINITE) fputs(".satfinite", o->f);
	put(o, rnd_name[in->rnd]);
}

/* tex, tld4, suld, sust (parse_tex.c) */
static void tex_mnemonic(Out *o, const Ins *in)
{
	fputs(op_info[in->op].name, o->f);
	int su = in->op == OP_SULD || in->op == OP_SUST;
	if (su) fputs(".b", o->f);
	if (in->op == OP_TLD4) put(o, mode_name[in->mode]);
	put(o, texgeom_name[in->shape]);
	if (in->vec) fprintf(o->f, ".v%d", in->vec);
	put(o, ptxtype_name[in->type]);
	put(o, ptxtype_name[in->type2]);
	if (su) put(o, mode_name[in->mode]);
}

/* the shared modifier table's order; CLUSTER, GRIDDEP, FENCE and BULK keep their own
 * forms in the hints */
static void base_mnemonic(Out *o, const Ins *in)
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
	if (!mem && op != OP_CLBAR && op != OP_CP_BULK)   /* their forms: in the hints */
		put(o, mode_name[in->mode]);
	if (bar) put(o, atomop_name[in->aop]);
	put_mods(o, mods, MOD_CC);
	put(o, cmp_name[in->cmp]);
	if (in->bop) put(o, in->bop == BOP_AND ? "and" : in->bop == BOP_OR ? "or" : "xor");
	if (!bar) put(o, atomop_name[in->aop]);
	put(o, rnd_name[in->rnd]);
	put_mods(o, mods & ~(uint32_t)(MOD_TO | MOD_WARP | MOD_NC | MOD_CC |
	                                (early_sync ? MOD_SYNC : 0)), ~(uint32_t)0);
	if (in->vec) fprintf(o->f, ".v%d", in->vec);
	put(o, ptxtype_name[in->type]);
	put(o, ptxtype_name[in->type2]);
}

/* the mnemonic and its modifiers, written back in the order of the op's grammar
 * (ops.def) */
static void mnemonic(Out *o, const Ins *in)
{
	switch ((ModGram)op_info[in->op].gram) {
	case MG_ASYNC: async_mnemonic(o, in); return;
	case MG_MBAR: mbar_mnemonic(o, in); return;
	case MG_MATRIX: matrix_mnemonic(o, in); return;
	case MG_MMA: mma_mnemonic(o, in); return;
	case MG_WMMA: wmma_mnemonic(o, in); return;
	case MG_TEX: tex_mnemonic(o, in); return;
	case MG_VIDEO:
		base_mnemonic(o, in);
		put(o, (in->mods & MOD_VB_S32) ? "s32" : "u32");  /* SIMD video: .btype */
		return;
	case MG_BASE: case MG_CVT: case MG_FENCE: case MG_CLUSTER: case MG_GRIDDEP: case MG_BULK:
		base_mnemonic(o, in);
		return;
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
	fputs(o->ind, o->f);
	if (in->guard >= 0)
		fprintf(o->f, "@%s%s ", in->guard_neg ? "!" : "",
		        ir_regname(o->m, fn, in->guard, buf, sizeof buf));
	mnemonic(o, in);
	for (int k = 0; k < in->nd + in->ns; k++) {
		const Operand *x = &in->o[k];
		int taddr = op_info[in->op].gram == MG_TEX && k == in->nd;    /* [handle, {coordinates}] */
		fputs(k == 0 ? " " : (x->flags & OPDF_PIPE) ? "|" : ", ", o->f);
		if (taddr) fputc('[', o->f);
		if (in->op == OP_CALL && x->kind == OPK_VEC) call_args(o, fn, x);
		else operand(o, fn, x);
		if (taddr) {
			fputs(", ", o->f);
			operand(o, fn, &in->o[++k]);
			fputc(']', o->f);
		}
	}
	fputs(";\n", o->f);
}

/* ---- bodies --------------------------------------------------------------- */

/*
 * Declarations go back into the block that declared them, in an order that
 * recreates their ids: a block's declarations made after a nested block
 * (ids above the nested block's) are written after it.  Blocks are
 * numbered by slot: 0 the body, i + 1 the block opened by ins[i].
 */
typedef struct Decls {
	int32_t nslot;
	int32_t *rfirst, *rorder, *rcur;    /* rdecl indexes grouped by slot; next to print */
	int32_t *sfirst, *sorder, *scur;    /* locals indexes grouped by slot */
	int32_t *minreg, *minsym;           /* smallest id declared in the slot's subtree */
	int32_t *parent, *child, *sibling;  /* slot tree: first child, next sibling */
} Decls;

static int32_t *group(int32_t nslot, int32_t n, const int32_t *slot_of, int32_t **order)
{
	int32_t *first = xcalloc((size_t)nslot + 1, sizeof *first);
	int32_t *fill = xcalloc((size_t)nslot + 1, sizeof *fill);
	*order = xmalloc((size_t)n * sizeof **order + 1);
	for (int32_t i = 0; i < n; i++) first[slot_of[i] + 1]++;
	for (int32_t b = 1; b <= nslot; b++) first[b] += first[b - 1];
	memcpy(fill, first, (size_t)nslot * sizeof *fill);
	for (int32_t i = 0; i < n; i++) (*order)[fill[slot_of[i]]++] = i;
	free(fill);
	return first;
}

static void slot_tree(Decls *g, const Func *fn)
{
	int32_t *last = xmalloc((size_t)g->nslot * sizeof *last);
	int32_t *stack = xmalloc((size_t)g->nslot * sizeof *stack);
	int32_t sp = 0;
	for (int32_t b = 0; b < g->nslot; b++) g->child[b] = g->sibling[b] = last[b] = -1;
	stack[sp++] = 0;
	for (int32_t i = 0; i < fn->nins; i++) {
		if (fn->ins[i].op == OP_SCOPE_BEGIN) {
			int32_t c = i + 1, b = stack[sp - 1];
			g->parent[c] = b;
			if (last[b] < 0) g->child[b] = c;
			else g->sibling[last[b]] = c;
			last[b] = c;
			stack[sp++] = c;
		} else if (fn->ins[i].op == OP_SCOPE_END && sp > 1) {
			sp--;
		}
	}
	free(last), free(stack);
}

static void lower_min(Decls *g, int32_t *mins, int32_t slot, int32_t id)
{
	for (; slot > 0; slot = g->parent[slot])
		if (id < mins[slot]) mins[slot] = id;
}

static Decls group_decls(const Module *m, const Func *fn)
{
	Decls g;
	int32_t n = fn->nrdecl > fn->nlocal ? fn->nrdecl : fn->nlocal;
	int32_t *slot = xmalloc((size_t)n * sizeof *slot + 1);
	g.nslot = fn->nins + 1;
	size_t sz = (size_t)g.nslot * sizeof(int32_t);
	g.rcur = xmalloc(sz), g.scur = xmalloc(sz);
	g.minreg = xmalloc(sz), g.minsym = xmalloc(sz);
	g.parent = xcalloc((size_t)g.nslot, sizeof(int32_t));
	g.child = xmalloc(sz), g.sibling = xmalloc(sz);
	slot_tree(&g, fn);
	for (int32_t i = 0; i < fn->nrdecl; i++) slot[i] = fn->rdecl[i].scope + 1;
	g.rfirst = group(g.nslot, fn->nrdecl, slot, &g.rorder);
	for (int32_t i = 0; i < fn->nlocal; i++) slot[i] = m->syms[fn->locals[i]].scope + 1;
	g.sfirst = group(g.nslot, fn->nlocal, slot, &g.sorder);
	free(slot);
	for (int32_t b = 0; b < g.nslot; b++) {
		g.rcur[b] = g.rfirst[b], g.scur[b] = g.sfirst[b];
		g.minreg[b] = g.minsym[b] = INT32_MAX;
	}
	for (int32_t i = 0; i < fn->nrdecl; i++)
		lower_min(&g, g.minreg, fn->rdecl[i].scope + 1, fn->rdecl[i].base);
	for (int32_t i = 0; i < fn->nlocal; i++)
		lower_min(&g, g.minsym, m->syms[fn->locals[i]].scope + 1, fn->locals[i]);
	return g;
}

static void decls_free(Decls *g)
{
	free(g->rfirst), free(g->rorder), free(g->rcur), free(g->sfirst), free(g->sorder);
	free(g->scur), free(g->minreg), free(g->minsym), free(g->parent), free(g->child);
	free(g->sibling);
}

static void reg_decl(Out *o, const RegDecl *r)
{
	fprintf(o->f, "%s.reg", o->ind);
	if (r->vec) fprintf(o->f, " .v%d", r->vec);
	fprintf(o->f, " .%s %s", ptxtype_name[r->type], ir_str(o->m, r->name));
	if (r->count) fprintf(o->f, "<%d>", r->count);
	fputs(";\n", o->f);
}

/* writes slot b's declarations that precede its child block `next` (-1: all) */
static void flush_decls(Out *o, const Func *fn, Decls *g, int32_t b, int32_t next)
{
	int32_t rlim = next > 0 ? g->minreg[next] : INT32_MAX;
	int32_t slim = next > 0 ? g->minsym[next] : INT32_MAX;
	for (; g->rcur[b] < g->rfirst[b + 1]; g->rcur[b]++) {
		const RegDecl *r = &fn->rdecl[g->rorder[g->rcur[b]]];
		if (r->base > rlim) break;
		reg_decl(o, r);
	}
	for (; g->scur[b] < g->sfirst[b + 1]; g->scur[b]++) {
		int32_t id = fn->locals[g->sorder[g->scur[b]]];
		if (id > slim) break;
		const Sym *s = &o->m->syms[id];
		if (s->kind == SYM_PROTO) proto_decl(o, s, o->ind);
		else variable(o, s, o->ind);
	}
}

static void body(Out *o, const Func *fn)
{
	Decls g = group_decls(o->m, fn);
	int32_t *lab = xmalloc(((size_t)fn->nins + 2) * sizeof *lab);  /* first label at i */
	int32_t *nextlab = xmalloc(((size_t)fn->nlabel + 1) * sizeof *nextlab);
	int32_t *open = xmalloc(((size_t)fn->nins + 1) * sizeof *open), nopen = 0;
	for (int32_t i = 0; i <= fn->nins; i++) lab[i] = -1;
	for (int32_t l = fn->nlabel - 1; l >= 0; l--) {
		nextlab[l] = lab[fn->labels[l].ins];
		lab[fn->labels[l].ins] = l;
	}
	fputs("{\n", o->f);
	o->ind = tabs(1);
	flush_decls(o, fn, &g, 0, g.child[0]);
	open[nopen++] = 0;
	for (int32_t i = 0, pg = 0; i <= fn->nins; i++) {
		for (int32_t l = lab[i]; l >= 0; l = nextlab[l])
			fprintf(o->f, "%s:\n", ir_str(o->m, fn->labels[l].name));
		for (; pg < fn->nbpragma && fn->bpragmas[pg].ins <= i; pg++)
			pragmas(o, fn->bpragmas[pg].text, o->ind);
		if (i == fn->nins) break;
		const Ins *in = &fn->ins[i];
		if (in->op == OP_SCOPE_BEGIN) {
			fprintf(o->f, "%s{\n", o->ind);
			open[nopen++] = i + 1;
			o->ind = tabs(nopen);
			flush_decls(o, fn, &g, i + 1, g.child[i + 1]);
		} else if (in->op == OP_SCOPE_END) {
			int32_t c = nopen > 1 ? open[--nopen] : 0;
			flush_decls(o, fn, &g, c, -1);
			o->ind = tabs(nopen);
			fprintf(o->f, "%s}\n", o->ind);
			flush_decls(o, fn, &g, open[nopen - 1], g.sibling[c]);
		} else {
			instruction(o, fn, in);
		}
	}
	while (nopen) flush_decls(o, fn, &g, open[--nopen], -1);
	fputs("}\n", o->f);
	free(lab), free(nextlab), free(open);
	decls_free(&g);
}

/* ---- the module ----------------------------------------------------------- */

static void func_item(Out *o, int32_t sym, uint32_t attr, int with_body)
{
	const Func *fn = &o->m->funcs[o->m->syms[sym].func];
	fputc('\n', o->f);
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
	Out o = {m, f, ""};
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

void ptx_print_ins(const Module *m, const Func *fn, const Ins *in, FILE *f)
{
	Out o = {m, f, "\t"};
	instruction(&o, fn, in);
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
