/*
 * parse_check.c -- each instruction's operands against its form: their
 * kinds and their types, as ptxas checks them.
 *
 * The form (ops.def, form.c) gives each operand a class; the rules are the
 * PTX ISA's (9.4, "Type Information for Instructions and Operands"), with
 * NVIDIA's assembler (ptxas, CUDA 13) as the judge where the text is
 * silent.  A register of type r is compatible with an instruction type t
 *
 *   strictly (arithmetic, mov, setp, atom, ...): r = t, or the two are of
 *     one size and either is a bit-size type (.b32 takes .f32 and .u32
 *     registers, .f32 takes .b32 ones) or both are integers (.u32 and .s32);
 *   relaxed (ld/st data, cvt, 9.4.1): the register may also be wider -- a
 *     bit-size type takes any register at least as wide, an integer type
 *     any integer or bit-size one, a floating-point type its own or a wider
 *     bit-size one (ld.global.u8 %r1, cvt.rn.f16.f32 %r1, %f1).
 *
 * The packed types (.f16x2, .bf16, .bf16x2, .tf32, .u16x2, .e4m3x2, ...)
 * take bit-size registers.  Predicates go only where a predicate belongs:
 * a .pred register, `!p' in a source, or an integer constant, which ptxas
 * also accepts (vote.sync.ballot.b32 d, 1, -1).  A constant must be of the
 * type's kind: no integer where .f32/.f64 wants a float (add.f32 %f1, %f2,
 * 1), no float where an integer type wants an integer.  An address's base
 * register is of an integer or bit-size type.  Vectors: ld/st/atom .vN take
 * a vector of N, mov.bN packs or unpacks 2 or 4 registers of N/2 or N/4
 * bits, and a vector's registers are of one size.
 *
 * Left out: special registers and symbols used as values (their types are
 * not checked), which instruction types an opcode allows at all, and the
 * forms the instruction's own checks cover (x and * classes: parse_tc.c,
 * parse_mbar.c, parse_tex.c).  Each error names the operand and points at
 * it, file:line:col.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ptx/parse.h"

/* ---- types ---------------------------------------------------------------- */

enum { TC_BIT, TC_INT, TC_FLOAT, TC_PACKED, TC_PRED, TC_NONE };

static int tclass(PtxType t)
{
	switch (t) {
	case PT_B8: case PT_B16: case PT_B32: case PT_B64: case PT_B128: return TC_BIT;
	case PT_U8: case PT_U16: case PT_U32: case PT_U64: case PT_S8: case PT_S16: case PT_S32:
	case PT_S64: return TC_INT;
	case PT_F16: case PT_F32: case PT_F64: return TC_FLOAT;
	case PT_F16X2: case PT_BF16: case PT_BF16X2: case PT_TF32: case PT_U16X2: case PT_S16X2:
	case PT_E4M3X2: case PT_E5M2X2: return TC_PACKED;
	case PT_PRED: return TC_PRED;
	case PT_NONE: case NPTXTYPE: return TC_NONE;
	}
	return TC_NONE;
}

/* may a register of type r hold an operand of type t (relaxed: ld/st/cvt data)? */
static int compatible(PtxType t, PtxType r, int relaxed)
{
	int kt = tclass(t), kr = tclass(r), st = ptxtype_size(t), sr = ptxtype_size(r);
	if (t == r) return 1;
	if (kt == TC_PRED || kr == TC_PRED) return 0;
	if (relaxed && sr > st) {
		switch (kt) {
		case TC_BIT: return 1;
		case TC_INT: return kr == TC_BIT || kr == TC_INT;
		default: return kr == TC_BIT;
		}
	}
	if (sr != st) return 0;
	return kt == TC_BIT || kr == TC_BIT || (kt == TC_INT && kr == TC_INT);
}

/* what a register for type t must be, for messages */
static const char *needs(PtxType t, int relaxed, char *buf, size_t n)
{
	int bits = 8 * ptxtype_size(t);
	const char *wide = relaxed ? "at least " : "";
	switch (tclass(t)) {
	case TC_BIT: snprintf(buf, n, "a register of %s%d bits", wide, bits); break;
	case TC_INT:
		snprintf(buf, n, "an integer or bit-size register of %s%d bits", wide, bits);
		break;
	case TC_FLOAT:
		snprintf(buf, n, "a .%s register or a bit-size one of %s%d bits", ptxtype_name[t],
		         wide, bits);
		break;
	case TC_PACKED: snprintf(buf, n, "a bit-size register of %s%d bits", wide, bits); break;
	default: snprintf(buf, n, "a .pred register"); break;
	}
	return buf;
}

/* ---- one operand -------------------------------------------------------------- */

typedef struct Chk {         /* the instruction being checked */
	Parser *p;
	const Tok *at;           /* its mnemonic */
	const Ins *in;
	const Tok *opat;         /* where each operand starts */
} Chk;

/* "operand K of 'MNEMONIC' (.t) ...", at the operand; t = PT_NONE: no type named */
__attribute__((noreturn, format(printf, 4, 5)))
static void bad(const Chk *c, int k, PtxType t, const char *fmt, ...)
{
	char msg[384], ty[16] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (t != PT_NONE) snprintf(ty, sizeof ty, " (.%s)", ptxtype_name[t]);
	p_error_at(c->p, &c->opat[k], "operand %d of '%.*s'%s %s", k + 1, (int)c->at->len,
	           c->at->s, ty, msg);
}

static PtxType reg_type(const Chk *c, const Operand *o)
{
	return (PtxType)c->p->regtype[o->reg];
}

static int is_float_lit(const Operand *o)
{
	return (o->flags & (OPDF_F32LIT | OPDF_F64LIT)) != 0;
}

/* what o is, for messages: "a .f32 register", "an integer constant", ... */
static const char *what(const Chk *c, const Operand *o, char *buf, size_t n)
{
	switch ((OpdKind)o->kind) {
	case OPK_REG: snprintf(buf, n, "a .%s register", ptxtype_name[reg_type(c, o)]); break;
	case OPK_IMM:
		return is_float_lit(o) ? "a floating-point constant" : "an integer constant";
	case OPK_SREG: return "a special register";
	case OPK_SYM: return "a symbol";
	case OPK_LABEL: return "a label";
	case OPK_ADDR: return "an [address]";
	case OPK_SINK: return "'_'";
	case OPK_VEC: return "a vector";
	case OPK_NONE: case NOPK: return "nothing";
	}
	return buf;
}

/* a predicate operand (class p, or a or b of a .pred instruction) */
static void pred_opd(const Chk *c, int k, const Operand *o, int dest)
{
	char buf[32];
	if (o->kind == OPK_REG && reg_type(c, o) == PT_PRED) return;
	if ((o->kind == OPK_SINK && dest) || (o->kind == OPK_SREG && !dest)) return;
	if (o->kind == OPK_IMM && !dest && !is_float_lit(o)) return;
	bad(c, k, PT_PRED, "is %s; it needs a .pred register%s", what(c, o, buf, sizeof buf),
	    dest ? "" : " or an integer");
}

/* one scalar value (or vector element) of type t */
static void value_opd(const Chk *c, int k, const Operand *o, PtxType t, int relaxed, int dest)
{
	char buf[96], wb[32];
	switch ((OpdKind)o->kind) {
	case OPK_REG:
		if (t == PT_NONE || compatible(t, reg_type(c, o), relaxed)) return;
		bad(c, k, t, "is %s; it needs %s", what(c, o, wb, sizeof wb),
		    needs(t, relaxed, buf, sizeof buf));
	case OPK_IMM:
		if (dest) break;
		if (tclass(t) == TC_INT && is_float_lit(o))
			bad(c, k, t, "is a floating-point constant; it needs an integer");
		if ((t == PT_F32 || t == PT_F64) && !is_float_lit(o))
			bad(c, k, t, "is an integer constant; it needs a floating-point one "
			    "(0f3F800000, 1.0)");
		return;
	case OPK_SINK:
		if (dest) return;
		break;
	case OPK_SREG: case OPK_SYM:
		if (!dest) return;
		break;
	case OPK_ADDR: case OPK_VEC: case OPK_LABEL: case OPK_NONE: case NOPK: break;
	}
	bad(c, k, PT_NONE, "is %s; it needs a register%s", what(c, o, wb, sizeof wb),
	    dest ? "" : " or a constant");
}

/* a vector of values of type t, its registers all of one size; sinks: '_' elements
 * may stand for nothing in a source too (mov.b32 d, {a, _}: ptxas takes it) */
static void vector_opd(const Chk *c, int k, const Operand *o, PtxType t, int relaxed, int dest,
                       int sinks)
{
	const Operand *e = &c->p->vops[o->reg];
	int size = 0;
	for (int i = 0; i < o->n; i++) {
		if (e[i].kind == OPK_SINK && sinks) continue;
		value_opd(c, k, &e[i], t, relaxed, dest);
		if (e[i].kind != OPK_REG) continue;
		int s = ptxtype_size(reg_type(c, &e[i]));
		if (size && s != size)
			bad(c, k, PT_NONE, "mixes registers of %d and %d bits", 8 * size, 8 * s);
		size = s;
	}
}

/* the type class letter cl gives, and whether it is relaxed */
static PtxType class_type(const Ins *in, int cl, int *relaxed)
{
	*relaxed = cl == 'l' || cl == 'L';
	switch (cl) {
	case 'a': case 'l': return (PtxType)in->type;
	case 'b': case 'L': return (PtxType)in->type2;
	case 'u': return PT_U32;
	case 'B': return PT_B32;
	case 'A': {
		PtxType t = (PtxType)in->type;
		if (in->mode != MODE_WIDE) return t;
		switch (t) {
		case PT_U16: return PT_U32;
		case PT_S16: return PT_S32;
		case PT_U32: return PT_U64;
		case PT_S32: return PT_S64;
		default: return t;
		}
	}
	default: return PT_NONE;
	}
}

/* ld/st/atom/red .vN data: a vector of N */
static int vec_data(const Ins *in, int cl)
{
	int op = in->op;
	return (cl == 'l' && op != OP_CVT) ||
	       (cl == 'a' && (op == OP_ATOM || op == OP_RED));
}

static void typed_opd(const Chk *c, int k, int cl, int dest)
{
	const Ins *in = c->in;
	const Operand *o = &in->o[k];
	int relaxed;
	PtxType t = class_type(in, cl, &relaxed);
	if (t == PT_PRED) {
		pred_opd(c, k, o, dest);
		return;
	}
	if (vec_data(in, cl) && (in->vec || o->kind == OPK_VEC)) {
		int n = in->vec ? in->vec : 1;
		char wb[32];
		if (o->kind != OPK_VEC)
			bad(c, k, PT_NONE, "is %s; .v%d needs a vector of %d", what(c, o, wb, sizeof wb),
			    n, n);
		if (o->n != n)
			bad(c, k, PT_NONE, "is a vector of %d; the instruction needs %d", o->n, n);
		vector_opd(c, k, o, t, relaxed, dest, dest);
		return;
	}
	value_opd(c, k, o, t, relaxed, dest);
}

static void address_opd(const Chk *c, int k)
{
	const Operand *o = &c->in->o[k];
	if (o->kind != OPK_ADDR)
		p_error_at(c->p, &c->opat[k], "'%.*s' needs an [address] operand", (int)c->at->len,
		           c->at->s);
	if (o->flags & OPDF_SYMBASE || o->reg < 0) return;
	PtxType r = reg_type(c, o);
	if (tclass(r) != TC_BIT && tclass(r) != TC_INT)
		bad(c, k, PT_NONE, "has a .%s register as its address; an address needs an integer "
		    "or bit-size register", ptxtype_name[r]);
}

static void one_operand(const Chk *c, int k, int cl, int dest)
{
	const Operand *o = &c->in->o[k];
	char wb[32];
	if ((o->flags & OPDF_NEG) && (dest || (cl != 'p' && c->in->type != PT_PRED)))
		bad(c, k, PT_NONE, "cannot be negated ('!' goes before a predicate source)");
	switch (cl) {
	case '*': return;
	case 'x':
		if (o->kind == OPK_ADDR) bad(c, k, PT_NONE, "is an [address]; none belongs here");
		return;
	case 'm': address_opd(c, k); return;
	case 'j':
		if (o->kind != OPK_LABEL)
			p_error_at(c->p, &c->opat[k], "%.*s needs a label", (int)c->at->len, c->at->s);
		return;
	case 'i':
		if (o->kind != OPK_IMM || is_float_lit(o))
			bad(c, k, PT_NONE, "is %s; it needs an integer constant", what(c, o, wb,
			    sizeof wb));
		return;
	case 'p': pred_opd(c, k, o, dest); return;
	case 'n':
		if (o->kind == OPK_REG && tclass(reg_type(c, o)) != TC_BIT &&
		    tclass(reg_type(c, o)) != TC_INT)
			bad(c, k, PT_NONE, "is a .%s register; an address value needs an integer or "
			    "bit-size register", ptxtype_name[reg_type(c, o)]);
		value_opd(c, k, o, PT_NONE, 0, dest);
		return;
	default: typed_opd(c, k, cl, dest); return;
	}
}

/* ---- whole instructions ----------------------------------------------------------- */

/* mov.bN d, {a, b...} and mov.bN {a, b...}, d: 2 or 4 registers of N/2 or N/4 bits */
static void mov_pack(const Chk *c, int k)
{
	const Ins *in = c->in;
	const Operand *o = &in->o[k];
	PtxType t = (PtxType)in->type;
	int size = ptxtype_size(t);
	if (tclass(t) != TC_BIT)
		p_error_at(c->p, c->at, "'%.*s': packing or unpacking a vector needs a bit-size type "
		           "(.b16, .b32, .b64, .b128)", (int)c->at->len, c->at->s);
	if ((o->n != 2 && o->n != 4) || size % o->n)
		bad(c, k, PT_NONE, "is a vector of %d; .%s packs 2 or 4 elements", o->n,
		    ptxtype_name[t]);
	PtxType et = size / o->n == 8 ? PT_B64 : size / o->n == 4 ? PT_B32 :
	             size / o->n == 2 ? PT_B16 : PT_B8;
	vector_opd(c, k, o, et, 0, k < in->nd, 1);
}

static void vote_shfl(const Chk *c)
{
	const Ins *in = c->in;
	const char *mn = c->at->s;
	int n = (int)c->at->len;
	if (in->op == OP_VOTE) {
		if (!in->mode)
			p_error_at(c->p, c->at, "'%.*s' needs a mode: .all, .any, .uni or .ballot", n, mn);
		if (in->mode == MODE_BALLOT && in->type != PT_B32)
			p_error_at(c->p, c->at, "'%.*s': vote.ballot's type is .b32", n, mn);
		if (in->mode != MODE_BALLOT && in->type != PT_PRED)
			p_error_at(c->p, c->at, "'%.*s': vote.%s's type is .pred", n, mn,
			           mode_name[in->mode]);
	} else {
		if (in->mode < MODE_UP || in->mode > MODE_IDX)
			p_error_at(c->p, c->at, "'%.*s' needs a mode: .up, .down, .bfly or .idx", n, mn);
		if (in->type != PT_B32) p_error_at(c->p, c->at, "'%.*s': shfl's type is .b32", n, mn);
	}
}

/* the rules no form says: modifiers that go together, instruction-specific forms */
static void form_rules(const Chk *c)
{
	const Ins *in = c->in;
	const char *mn = c->at->s;
	int n = (int)c->at->len;
	switch ((Op)in->op) {
	case OP_VOTE: case OP_SHFL: vote_shfl(c); break;
	case OP_SETP: case OP_SET:
		if (in->bop && in->ns < 3)
			p_error_at(c->p, c->at, "'%.*s' has a boolean operation but no predicate to "
			           "combine", n, mn);
		if (!in->bop && in->ns == 3)
			p_error_at(c->p, c->at, "'%.*s' combines a predicate operand but names no "
			           "boolean operation (.and, .or, .xor)", n, mn);
		break;
	case OP_MAPA: case OP_GETCTARANK:
		if ((in->type != PT_U32 && in->type != PT_U64) ||
		    (in->space && in->space != SP_SHARED_CLUSTER))
			p_error_at(c->p, c->at, "'%.*s': the forms are mapa{.shared::cluster}.u32|.u64 "
			           "d, a, rank and getctarank{.shared::cluster}.u32|.u64 d, a", n, mn);
		break;
	case OP_ELECT:                          /* elect.sync d|p, membermask */
		if (!(in->mods & MOD_SYNC) || in->nd != 2 || in->type != PT_NONE)
			p_error_at(c->p, c->at, "'%.*s': the form is elect.sync d|p, membermask", n, mn);
		break;
	default:
		break;
	}
}

void pchk_operands(Parser *p, const Tok *at, const Ins *in, const Tok *opat)
{
	Chk c = {p, at, in, opat};
	char cls[INS_MAXOPD];
	form_classes(ins_form(in), in->nd, in->ns, cls);
	form_rules(&c);
	for (int k = 0; k < in->nd + in->ns; k++) {
		int dest = k < in->nd, cl = cls[k];
		int kd = in->o[k].kind;
		char wb[32];
		if (dest && kd != OPK_REG && kd != OPK_VEC && kd != OPK_SINK)
			bad(&c, k, PT_NONE, "is %s; it needs a register", what(&c, &in->o[k], wb,
			    sizeof wb));
		if (in->op == OP_MOV && in->o[k].kind == OPK_VEC) mov_pack(&c, k);
		else one_operand(&c, k, cl, dest);
	}
}
