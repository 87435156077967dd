/*
 * form.c -- an instruction's operand form: which operands it takes and how
 * each is typed (the letters are ops.def's).
 *
 * Most opcodes have one form, their ops.def row.  A few have forms that
 * their modifiers select, as the PTX ISA writes them:
 *
 *   vote.sync.mode.type d, {!}a, membermask;   vote.mode.type d, {!}a;
 *   shfl.sync.mode.b32 d{|p}, a, b, c, membermask;   shfl.mode.b32 d{|p}, a, b, c;
 *   atom.cas.type d, [a], b, c;   atom.op.type d, [a], b{, cache-policy};
 *   cvt.frnd.f16x2|bf16x2|e4m3x2|e5m2x2.f32 d, a, b;   cvt.type.type2 d, a;
 *   bar.red.op.type d, a{, b}, {!}c;   bar.arrive a, b;   bar.sync a{, b};
 *   bar.warp.sync membermask;
 *
 * The parser reads the counts from the form (form_shape), parse_check.c
 * each operand's class, and the decoder which sources are predicates --
 * a predicate source may be an immediate, which only its position tells.
 */
#include <string.h>

#include "ptx/ir.h"

/* cvt's two-source packs: d = {a, b} converted, a in the upper half */
static int packs_pair(const Ins *in)
{
	PtxType d = (PtxType)in->type;
	return in->type2 == PT_F32 && (d == PT_F16X2 || d == PT_BF16X2 || d == PT_E4M3X2 ||
	                               d == PT_E5M2X2);
}

const char *ins_form(const Ins *in)
{
	switch ((Op)in->op) {
	case OP_VOTE: return in->mods & MOD_SYNC ? "a=pu" : "a=p";
	case OP_SHFL: return in->mods & MOD_SYNC ? "a|p=aaau" : "a|p=aaa";
	case OP_ATOM: return in->aop == AOP_CAS ? "a=maa[x]" : "a=ma[x]";
	case OP_CVT: return packs_pair(in) ? "l=LL" : "l=L";
	case OP_BAR: case OP_BARRIER:
		if (in->mods & MOD_WARP) return "=u";
		return in->mode == MODE_RED ? "a=u[u]p" : in->mode == MODE_ARRIVE ? "=uu" : "=u[u]";
	default:
		return op_info[in->op].form;
	}
}

FormShape form_shape(const char *f)
{
	FormShape s = {0, 0, 0, 0};
	const char *eq = strchr(f, '=');
	if (!eq) return s;                           /* "-" */
	s.nd = eq > f;
	s.pipe = eq - f > 1 && f[1] == '|';
	for (const char *c = eq + 1, *open = NULL; *c; c++) {
		if (*c == '[') open = c;
		else if (*c == ']') open = NULL;
		else s.hi++, s.lo += !open;
	}
	return s;
}

void form_classes(const char *f, int nd, int ns, char *cls)
{
	const char *eq = strchr(f, '=');
	memset(cls, 0, INS_MAXOPD);
	if (!eq) return;
	if (nd > 0) cls[0] = f[0];
	if (nd > 1 && eq - f > 2) cls[1] = f[2];
	int extra = ns - form_shape(f).lo, k = nd, opt = 0;
	for (const char *c = eq + 1; *c && k < nd + ns && k < INS_MAXOPD; c++) {
		if (*c == '[' || *c == ']') {
			opt = *c == '[';
			continue;
		}
		if (opt && extra-- <= 0) continue;      /* an optional operand not written */
		cls[k++] = *c;
	}
}

int form_class(const char *f, int nd, int ns, int k)
{
	char cls[INS_MAXOPD];
	if (k < 0 || k >= INS_MAXOPD) return 0;
	form_classes(f, nd, ns, cls);
	return cls[k];
}
