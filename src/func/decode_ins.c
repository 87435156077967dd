/*
 * decode_ins.c -- lowers each PTX instruction of a function to DIns.
 *
 * Operands become slots, predicate indices, immediate rows or resolved
 * addresses (see decode.h).  A special register used anywhere but as the
 * source of a mov is first read into a scratch slot by an internal mov
 * (DF_INTERNAL, not counted as an executed instruction).  Branch targets
 * become pcs, and each branch gets the pc where its paths reconverge: the
 * first instruction of its block's immediate post-dominator (cfg.c).
 *
 * Anything rfsim cannot execute faithfully is refused here, at load time,
 * with the PTX position: sim_eval_check() vets the arithmetic forms, and
 * the cases below the data movement and control forms.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "base/base.h"
#include "func/decode_int.h"
#include "func/eval.h"
#include "func/prog.h"

int dec_bad(const DecodeCtx *dc, const Ins *in, const char *what)
{
	err_set("%s:%u:%u: rfsim does not implement %s (in '%s')", dc->m->filename, in->line,
	        in->col, what, op_info[in->op].name);
	return RF_EINPUT;
}

int sym_class(const DecodeCtx *dc, int32_t id)
{
	const Module *m = dc->m;
	const Sym *s = &m->syms[id];
	if (s->kind == SYM_FUNC) return SC_FUNC;
	if (s->kind == SYM_PARAM && s->func >= 0) {
		const Func *f = &m->funcs[s->func];
		if (f->attr & ATTR_ENTRY)
			for (int32_t i = 0; i < f->nparam; i++)
				if (f->params[i] == id) return SC_KPARAM;
		return SC_FRAME;
	}
	switch ((Space)s->space) {
	case SP_GLOBAL: return SC_GLOBAL;
	case SP_CONST: return SC_CONST;
	case SP_SHARED: case SP_SHARED_CLUSTER: return SC_SHARED;
	case SP_LOCAL: case SP_PARAM: return s->func >= 0 ? SC_FRAME : SC_NONE;
	default: return SC_NONE;
	}
}

/* address of a symbol in its own space; extern shared arrays sit at the dynamic base */
static int64_t sym_addr(const DecodeCtx *dc, int32_t id)
{
	const Sym *s = &dc->m->syms[id];
	if ((s->space == SP_SHARED || s->space == SP_SHARED_CLUSTER) && s->count < 0)
		return dc->img->dyn_base;
	return dc->addr[id];
}

/* ---- immediates: rows of 32 equal lanes, a 64-bit value in two rows ---- */

int32_t dec_imm_row(DecodeCtx *dc, uint64_t v)
{
	Image *img = dc->img;
	if (dc->immcap == 0 || (img->nimm / 2 + 1) * 2 > dc->immcap) {  /* rehash */
		int32_t cap = dc->immcap ? dc->immcap * 2 : 256;
		uint64_t *k = xmalloc((size_t)cap * sizeof *k);
		int32_t *val = xmalloc((size_t)cap * sizeof *val);
		for (int32_t i = 0; i < cap; i++) val[i] = -1;
		for (int32_t i = 0; i < dc->immcap; i++) {
			if (dc->immval[i] < 0) continue;
			uint32_t h = (uint32_t)((dc->immkey[i] * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
			while (val[h] >= 0) h = (h + 1) & (cap - 1);
			k[h] = dc->immkey[i];
			val[h] = dc->immval[i];
		}
		free(dc->immkey);
		free(dc->immval);
		dc->immkey = k, dc->immval = val, dc->immcap = cap;
	}
	uint32_t h = (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> 40) & (dc->immcap - 1);
	while (dc->immval[h] >= 0) {
		if (dc->immkey[h] == v) return -dc->immval[h] - 1;
		h = (h + 1) & (dc->immcap - 1);
	}
	int32_t row = img->nimm;
	VEC_RESERVE(img->imm, dc->capimm, (size_t)(row + 2) * 32);
	for (int l = 0; l < 32; l++) {
		img->imm[row * 32 + l] = (uint32_t)v;
		img->imm[(row + 1) * 32 + l] = (uint32_t)(v >> 32);
	}
	img->nimm += 2;
	dc->immkey[h] = v;
	dc->immval[h] = row;
	return -row - 1;
}

/* immediate bits as the instruction type wants them (f32 literals in f64 ops...) */
static uint64_t imm_bits(const Operand *o, PtxType t)
{
	uint64_t v = (uint64_t)o->imm;
	if (t == PT_F64 && (o->flags & OPDF_F32LIT)) {
		float f;
		uint32_t u = (uint32_t)v;
		memcpy(&f, &u, 4);
		double x = f;
		memcpy(&v, &x, 8);
	} else if (t == PT_F32 && (o->flags & OPDF_F64LIT)) {
		double x;
		memcpy(&x, &v, 8);
		float f = (float)x;
		uint32_t u;
		memcpy(&u, &f, 4);
		v = u;
	}
	return v;
}

int dec_slots(PtxType t)
{
	int s = ptxtype_size(t);
	return s > 4 ? s / 4 : 1;
}

/* ---- emission ------------------------------------------------------------ */

static DIns *emit(DecodeCtx *dc, const Ins *in, int32_t fi, int32_t ir)
{
	Image *img = dc->img;
	VEC_RESERVE(img->code, dc->capcode, (size_t)img->ncode + 1);
	DIns *d = &img->code[img->ncode++];
	memset(d, 0, sizeof *d);
	d->op = in->op;
	d->kind = op_info[in->op].kind;
	d->type = in->type, d->type2 = in->type2;
	d->rnd = in->rnd, d->cmp = in->cmp, d->bop = in->bop, d->aop = in->aop;
	d->mode = in->mode, d->mods = in->mods;
	d->space = in->space;
	d->guard = -1;
	d->abase = -1;
	d->target = d->reconv = -1;
	d->ir = ir, d->func = fi, d->line = in->line;
	if (ptxtype_is_signed((PtxType)in->type)) d->flags |= DF_SIGNED;
	if (ptxtype_is_float((PtxType)in->type)) d->flags |= DF_FLOAT;
	for (int i = 0; i < DINS_MAXD; i++) d->d[i] = -1;
	return d;
}

/* the instruction being built (add_src may insert an internal one before it) */
DIns *dec_cur(DecodeCtx *dc) { return &dc->img->code[dc->img->ncode - 1]; }

static int32_t scratch_slot(DecodeCtx *dc, int32_t fi, int k)
{
	ImgFunc *f = &dc->img->funcs[fi];
	if (dc->scratch < 0) {
		dc->scratch = f->nslot;
		f->nslot += 8;
	}
	return dc->scratch + 2 * k;
}

/* append source operand o (read as type t) to the instruction being built,
 * which is always the last one emitted */
int dec_add_src(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o, PtxType t)
{
	const ImgFunc *f = &dc->img->funcs[fi];
	const Func *fn = &dc->m->funcs[f->ir_func];
	int32_t di = dc->img->ncode - 1;
	DIns *d = &dc->img->code[di];
	int k = d->ns;
	if (k >= DINS_MAXS) return dec_bad(dc, in, "this many source operands");
	int ts = dec_slots(t);
	switch ((OpdKind)o->kind) {
	case OPK_REG: {
		int32_t r = o->reg;
		if (fn->regtype[r] == PT_PRED) {
			d->spred |= (uint8_t)(1u << k);
			if (o->flags & OPDF_NEG) d->sneg |= (uint8_t)(1u << k);
		}
		d->s[k] = f->slot_of[r];
		int rs = dec_slots((PtxType)fn->regtype[r]);
		d->sw[k] = (uint8_t)(rs < ts ? rs : ts);
		break;
	}
	case OPK_IMM:                   /* a predicate constant: 1 true, 0 false, folding '!' */
		d->s[k] = dec_imm_row(dc, t != PT_PRED ? imm_bits(o, t) :
		                          (uint64_t)((o->imm != 0) ^ !!(o->flags & OPDF_NEG)));
		d->sw[k] = (uint8_t)ts;
		break;
	case OPK_SYM: {
		int sc = sym_class(dc, o->reg);
		if (sc == SC_FRAME || sc == SC_NONE || (sc == SC_FUNC && sym_addr(dc, o->reg) < 0))
			return dec_bad(dc, in, "this symbol as an arithmetic operand");
		d->s[k] = dec_imm_row(dc, (uint64_t)sym_addr(dc, o->reg) + (uint64_t)o->imm);
		d->sw[k] = (uint8_t)ts;
		break;
	}
	case OPK_SREG: {
		/* read the special register into a scratch slot first */
		int32_t slot = scratch_slot(dc, fi, k);
		DIns *x = emit(dc, in, fi, dc->img->code[di].ir);
		x->op = OP_MOV, x->kind = KIND_MOV;
		x->flags = DF_INTERNAL | DF_SREG;
		x->nd = 1, x->d[0] = slot, x->dw[0] = 2;
		x->imm = o->reg, x->aux = o->comp;
		if (o->reg >= SR_RSMEM_BEGIN && o->reg <= SR_RSMEM_1)
			dc->img->reserved_smem = IMG_RESERVED_SMEM;
		/* move the instruction being built after the internal one */
		DIns tmp = dc->img->code[di];
		dc->img->code[di] = *x;
		dc->img->code[di + 1] = tmp;
		d = &dc->img->code[di + 1];
		d->s[k] = slot;
		d->sw[k] = (uint8_t)ts;
		break;
	}
	default:
		return dec_bad(dc, in, "this kind of source operand");
	}
	d->ns++;
	return RF_OK;
}


int dec_set_dst(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o, int k)
{
	const ImgFunc *f = &dc->img->funcs[fi];
	const Func *fn = &dc->m->funcs[f->ir_func];
	DIns *d = dec_cur(dc);
	if (o->kind == OPK_SINK) {
		d->d[k] = -1;
		return RF_OK;
	}
	if (o->kind != OPK_REG) return dec_bad(dc, in, "this kind of destination operand");
	d->d[k] = f->slot_of[o->reg];
	PtxType rt = (PtxType)fn->regtype[o->reg];
	if (rt == PT_PRED) {
		if (k == 0) d->flags |= DF_PRED_DST;
	} else {
		d->dw[k] = (uint8_t)dec_slots(rt);
	}
	if (k >= d->nd) d->nd = (uint8_t)(k + 1);
	return RF_OK;
}

/* [base+off] with the instruction's state space */
int dec_set_addr(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o)
{
	const ImgFunc *f = &dc->img->funcs[fi];
	const Func *fn = &dc->m->funcs[f->ir_func];
	DIns *d = dec_cur(dc);
	int xs;
	switch ((Space)in->space) {
	case SP_GLOBAL: xs = XS_GLOBAL; break;
	case SP_SHARED: case SP_SHARED_CLUSTER: xs = XS_SHARED; break;
	case SP_LOCAL: xs = XS_LOCAL; break;
	case SP_CONST: xs = XS_CONST; break;
	case SP_PARAM: xs = XS_KPARAM; break;
	case SP_NONE: xs = XS_GENERIC; break;
	default: return dec_bad(dc, in, "this state space");
	}
	if (o->kind == OPK_SYM) {     /* bare symbol used as address (atom etc.) */
		Operand a = *o;
		a.kind = OPK_ADDR, a.flags |= OPDF_SYMBASE;
		return dec_set_addr(dc, fi, in, &a);
	}
	if (o->kind != OPK_ADDR) return dec_bad(dc, in, "this address operand");
	d->aoff = o->imm;
	if (o->flags & OPDF_SYMBASE) {
		int sc = sym_class(dc, o->reg);
		int64_t a = sym_addr(dc, o->reg);
		switch (sc) {
		case SC_FRAME: xs = XS_FRAME; break;
		case SC_KPARAM: xs = XS_KPARAM; break;
		case SC_GLOBAL: xs = XS_GLOBAL; break;
		case SC_CONST: xs = xs == XS_GENERIC ? XS_CONST : xs; break;
		case SC_SHARED: xs = XS_SHARED; break;
		default: return dec_bad(dc, in, "an address of this symbol");
		}
		d->aoff += a;
	} else if (o->reg >= 0) {
		d->abase = f->slot_of[o->reg];
		d->aw = (uint8_t)dec_slots((PtxType)fn->regtype[o->reg]);
	}
	d->space = (uint8_t)xs;
	return RF_OK;
}

/* the type source operand i of an arithmetic instruction is read as */
static PtxType src_type(const Ins *in, int i)
{
	PtxType t = (PtxType)in->type;
	switch ((Op)in->op) {
	case OP_CVT: case OP_SET: return (PtxType)in->type2;
	case OP_SLCT: return i == 2 ? (PtxType)in->type2 : t;
	case OP_SHL: case OP_SHR: return i == 1 ? PT_U32 : t;
	case OP_BFE: return i ? PT_U32 : t;
	case OP_BFI: return i >= 2 ? PT_U32 : t;
	case OP_SHF: case OP_PRMT: case OP_LOP3: case OP_BMSK: case OP_DP4A: case OP_DP2A:
	case OP_MUL24: case OP_MAD24: return PT_B32;
	case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VAVRG2:
	case OP_VAVRG4: case OP_VABSDIFF2: case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4:
	case OP_VMAX2: case OP_VMAX4:
		return PT_B32;
	case OP_MAD: case OP_MADC:
		if (i == 2 && in->mode == MODE_WIDE) return ptxtype_size(t) == 2 ? PT_B32 : PT_B64;
		return t;
	case OP_FNS: return PT_B32;
	default: return t;
	}
}

/* t, or PT_PRED where source i is a predicate (its form's class p): a constant there
 * is a truth value */
static PtxType pred_or(const Ins *in, int i, PtxType t)
{
	return form_class(ins_form(in), in->nd, in->ns, in->nd + i) == 'p' ? PT_PRED : t;
}

static int decode_alu(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	for (int i = 0; i < in->ns; i++)
		if (dec_add_src(dc, fi, in, &in->o[in->nd + i], pred_or(in, i, src_type(in, i))))
			return RF_EINPUT;
	for (int k = 0; k < in->nd; k++)
		if (dec_set_dst(dc, fi, in, &in->o[k], k)) return RF_EINPUT;
	const char *why = sim_eval_check(dec_cur(dc));
	return why ? dec_bad(dc, in, why) : RF_OK;
}


/* ---- data movement -------------------------------------------------------- */

static PtxType bits_type(int bytes)
{
	return bytes >= 8 ? PT_B64 : bytes == 4 ? PT_B32 : bytes == 2 ? PT_B16 : PT_B8;
}

static int decode_mov(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *dst = &in->o[0], *src = &in->o[in->nd];
	PtxType t = (PtxType)in->type;
	if (in->nd != 1 || in->ns != 1) return dec_bad(dc, in, "this operand form");
	if (dst->kind == OPK_VEC) {             /* unpack */
		int n = dst->n, e = ptxtype_size(t) / (n ? n : 1);
		dec_cur(dc)->elt = (uint8_t)e;
		for (int i = 0; i < n; i++)
			if (dec_set_dst(dc, fi, in, &fn->vops[dst->reg + i], i)) return RF_EINPUT;
		dec_cur(dc)->nd = (uint8_t)n;
		return dec_add_src(dc, fi, in, src, t);
	}
	if (src->kind == OPK_VEC) {             /* pack; a '_' element packs zeros */
		int n = src->n, e = ptxtype_size(t) / (n ? n : 1);
		Operand zero = {.kind = OPK_IMM};
		for (int i = 0; i < n; i++) {
			const Operand *o = &fn->vops[src->reg + i];
			if (dec_add_src(dc, fi, in, o->kind == OPK_SINK ? &zero : o, bits_type(e)))
				return RF_EINPUT;
		}
		dec_cur(dc)->elt = (uint8_t)e;
		return dec_set_dst(dc, fi, in, dst, 0);
	}
	if (src->kind == OPK_SREG) {
		if (dec_set_dst(dc, fi, in, dst, 0)) return RF_EINPUT;
		DIns *d = dec_cur(dc);
		d->flags |= DF_SREG;
		d->imm = src->reg, d->aux = src->comp;
		if (src->reg >= SR_RSMEM_BEGIN && src->reg <= SR_RSMEM_1)
			dc->img->reserved_smem = IMG_RESERVED_SMEM;
		return RF_OK;
	}
	if (src->kind == OPK_SYM && sym_class(dc, src->reg) == SC_FRAME) {
		if (dec_set_dst(dc, fi, in, dst, 0)) return RF_EINPUT;
		DIns *d = dec_cur(dc);
		d->flags |= DF_FRAMEADDR;
		d->imm = sym_addr(dc, src->reg) + src->imm;
		return RF_OK;
	}
	if (dec_add_src(dc, fi, in, src, t) || dec_set_dst(dc, fi, in, dst, 0)) return RF_EINPUT;
	DIns *d = dec_cur(dc);
	int ts = dec_slots(t);
	if (!d->spred && !(d->flags & DF_PRED_DST) && d->d[0] >= 0 && d->dw[0] == ts &&
	    d->sw[0] == ts && ptxtype_size(t) >= 4)
		d->fast = ts == 1 ? FAST_MOV32 : FAST_MOV64;
	return RF_OK;
}

static const Operand *find_addr(const Ins *in)
{
	for (int i = 0; i < in->nd + in->ns; i++)
		if (in->o[i].kind == OPK_ADDR) return &in->o[i];
	return NULL;
}

static int decode_ld(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *a = find_addr(in), *dst = &in->o[0];
	int e = ptxtype_size((PtxType)in->type);
	if (!a || in->nd != 1) return dec_bad(dc, in, "this operand form");
	if (e < 1 || e > 8) return dec_bad(dc, in, "loads of this type");
	if (dec_set_addr(dc, fi, in, a)) return RF_EINPUT;
	dec_cur(dc)->elt = (uint8_t)e;
	if (dc->m->kparam_cbank && in->op == OP_LD && dec_cur(dc)->space == XS_KPARAM)
		dec_cur(dc)->flags |= DF_CBANK;
	if (dst->kind == OPK_VEC) {
		for (int i = 0; i < dst->n && i < DINS_MAXD; i++)
			if (dec_set_dst(dc, fi, in, &fn->vops[dst->reg + i], i)) return RF_EINPUT;
		dec_cur(dc)->nd = dst->n;
		return RF_OK;
	}
	return dec_set_dst(dc, fi, in, dst, 0);
}

static int decode_st(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *a = find_addr(in);
	PtxType t = (PtxType)in->type;
	int e = ptxtype_size(t);
	if (!a) return dec_bad(dc, in, "this operand form");
	if (e < 1 || e > 8) return dec_bad(dc, in, "stores of this type");
	if (dec_set_addr(dc, fi, in, a)) return RF_EINPUT;
	dec_cur(dc)->elt = (uint8_t)e;
	for (int i = 0; i < in->nd + in->ns; i++) {
		const Operand *o = &in->o[i];
		if (o == a) continue;
		if (o->kind == OPK_VEC) {
			for (int k = 0; k < o->n; k++)
				if (dec_add_src(dc, fi, in, &fn->vops[o->reg + k], t)) return RF_EINPUT;
		} else if (dec_add_src(dc, fi, in, o, t)) {
			return RF_EINPUT;
		}
	}
	return RF_OK;
}

/* atom/red: [abase + aoff], d[0] the old value, s[] the operands; the vector forms of
 * sm_90 (atom/red .add/.min/.max .v2/.v4/.v8 of floating-point elements): d[k] and s[k]
 * element k, aux = the vector length */
static int decode_atom(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *a = find_addr(in);
	PtxType t = (PtxType)in->type;
	int e = ptxtype_size(t);
	if (!a) a = in->op == OP_RED ? &in->o[0] : &in->o[1];
	if (e < 2 || e > 8) return dec_bad(dc, in, "atomics of this type");
	if (in->vec && (!ptxtype_is_float(t) || t == PT_F64 ||
	                (in->aop != AOP_ADD && in->aop != AOP_MIN && in->aop != AOP_MAX) ||
	                (e == 4 && t == PT_F32 && in->vec > 4)))
		return dec_bad(dc, in, "vector atomics other than .add/.min/.max of .f32 (.v2, .v4) "
		               "or 16-bit floating-point elements");
	if (dec_set_addr(dc, fi, in, a)) return RF_EINPUT;
	dec_cur(dc)->elt = (uint8_t)e;
	dec_cur(dc)->aux = in->vec;
	for (int i = 0; i < in->nd + in->ns; i++) {
		const Operand *o = &in->o[i];
		if (o == a) continue;
		if (o->kind == OPK_VEC) {
			for (int k = 0; k < o->n && k < DINS_MAXD; k++)
				if (i < in->nd ? dec_set_dst(dc, fi, in, &fn->vops[o->reg + k], k)
				               : dec_add_src(dc, fi, in, &fn->vops[o->reg + k], t))
					return RF_EINPUT;
			if (i < in->nd) dec_cur(dc)->nd = o->n;
		} else if (i < in->nd) {
			if (dec_set_dst(dc, fi, in, o, 0)) return RF_EINPUT;
		} else if (dec_add_src(dc, fi, in, o, t)) {
			return RF_EINPUT;
		}
	}
	const char *why = sim_atom_check((AtomOp)in->aop, t);
	return why ? dec_bad(dc, in, why) : RF_OK;
}

/* mbarrier.*, cp.async.mbarrier.arrive: [abase + aoff] the 8-byte object, d[0] the
 * state or predicate, s[] in order (each read as its register's type), aux = MBF_* */
static int decode_mbar(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *a = find_addr(in);
	if (a && dec_set_addr(dc, fi, in, a)) return RF_EINPUT;
	dec_cur(dc)->elt = 8;
	dec_cur(dc)->aux = in->frag;
	for (int i = 0; i < in->nd + in->ns; i++) {
		const Operand *o = &in->o[i];
		PtxType t = o->kind == OPK_REG ? (PtxType)fn->regtype[o->reg] : PT_U32;
		if (o == a) continue;
		if (i < in->nd) {
			if (dec_set_dst(dc, fi, in, o, 0)) return RF_EINPUT;
		} else if (dec_add_src(dc, fi, in, o, t)) {
			return RF_EINPUT;
		}
	}
	return RF_OK;
}

/* destinations then sources, sources read as t (predicates as predicates) */
static int decode_plain(DecodeCtx *dc, int32_t fi, const Ins *in, PtxType t)
{
	for (int i = 0; i < in->ns; i++)
		if (dec_add_src(dc, fi, in, &in->o[in->nd + i], pred_or(in, i, t))) return RF_EINPUT;
	for (int k = 0; k < in->nd; k++)
		if (dec_set_dst(dc, fi, in, &in->o[k], k)) return RF_EINPUT;
	return RF_OK;
}

/* ---- control ---------------------------------------------------------------- */

static int decode_call(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Module *m = dc->m;
	const Func *fn = &m->funcs[dc->img->funcs[fi].ir_func];
	int callee = -1, nvec = 0;
	const Operand *vecs[2] = {0, 0};
	int callee_at = -1;
	if (in->guard >= 0) return dec_bad(dc, in, "predicated calls");
	for (int i = 0; i < in->nd + in->ns; i++) {
		const Operand *o = &in->o[i];
		if (o->kind == OPK_SYM && m->syms[o->reg].kind == SYM_FUNC && callee < 0) {
			callee = m->syms[o->reg].func;
			callee_at = i;
		} else if (o->kind == OPK_VEC && nvec < 2) {
			vecs[nvec++] = o;
		} else if (o->kind == OPK_REG && callee_at < 0) {
			callee_at = i;             /* call through a register: the prototype follows */
			if (dec_add_src(dc, fi, in, o, PT_U64)) return RF_EINPUT;
			dec_cur(dc)->flags |= DF_INDIRECT;
		}
	}
	if (callee < 0 && callee_at >= 0) {
		/* the prototype gives the formals' count; each callee its own offsets */
		const Sym *ps = NULL;
		for (int i = callee_at + 1; i < in->nd + in->ns; i++)
			if (in->o[i].kind == OPK_SYM && m->syms[in->o[i].reg].kind == SYM_PROTO)
				ps = &m->syms[in->o[i].reg];
		if (!ps || ps->func < 0) return dec_bad(dc, in, "an indirect call without a prototype");
		callee = ps->func;
	}
	if (callee < 0) return dec_bad(dc, in, "this call form");
	const Operand *rets = NULL, *args = NULL;
	for (int k = 0; k < nvec; k++) {
		if (vecs[k] < &in->o[callee_at]) rets = vecs[k];
		else args = vecs[k];
	}
	const Func *cf = &m->funcs[callee];
	int nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
	int builtin = cf->has_body ? 0 : builtin_lookup(ir_str(m, m->syms[cf->sym].name));
	if (nargs != cf->nparam || nrets != cf->nret) {
		err_set("%s:%u:%u: call passes %d argument(s) and %d return value(s); '%s' takes "
		        "%d and %d", m->filename, in->line, in->col, nargs, nrets,
		        ir_str(m, m->syms[cf->sym].name), cf->nparam, cf->nret);
		return RF_EINPUT;
	}
	Image *img = dc->img;
	VEC_RESERVE(img->calls, dc->capcall, (size_t)img->ncall + 1);
	CallInfo *ci = &img->calls[img->ncall];
	memset(ci, 0, sizeof *ci);
	int indirect = (dec_cur(dc)->flags & DF_INDIRECT) != 0;
	ci->callee = builtin || indirect ? -1 : dc->img_of_func[callee];
	ci->nargs = nargs, ci->nrets = nrets;
	int32_t *buf = arena_alloc(img->arena, (size_t)(nargs + nrets) * 3 * sizeof *buf + 4);
	ci->arg_src = buf, ci->arg_dst = buf + nargs, ci->arg_size = buf + 2 * nargs;
	buf += 3 * nargs;
	ci->ret_src = buf, ci->ret_dst = buf + nrets, ci->ret_size = buf + 2 * nrets;
	for (int pass = 0; pass < 2; pass++) {
		const Operand *list = pass ? rets : args;
		int n = pass ? nrets : nargs;
		for (int i = 0; i < n; i++) {
			const Operand *o = &fn->vops[list->reg + i];
			if (o->kind != OPK_SYM || sym_class(dc, o->reg) != SC_FRAME)
				return dec_bad(dc, in, "call arguments that are not .param variables");
			int32_t formal = pass ? cf->rets[i] : cf->params[i];
			int64_t sz = sym_size(&m->syms[o->reg]), fs = sym_size(&m->syms[formal]);
			if (fs < sz) sz = fs;
			if (builtin || indirect) dc->addr[formal] = 0;  /* (builtins read the caller's
			                        frame; an indirect call's callee gives its offsets) */
			if (pass) {
				ci->ret_src[i] = (int32_t)dc->addr[formal];
				ci->ret_dst[i] = (int32_t)dc->addr[o->reg];
				ci->ret_size[i] = (int32_t)sz;
			} else {
				ci->arg_src[i] = (int32_t)dc->addr[o->reg];
				ci->arg_dst[i] = (int32_t)dc->addr[formal];
				ci->arg_size[i] = (int32_t)sz;
			}
		}
	}
	dec_cur(dc)->aux = img->ncall++;
	if (builtin) {
		dec_cur(dc)->flags |= DF_BUILTIN;
		dec_cur(dc)->imm = builtin;
	}
	return RF_OK;
}

static int decode_one(DecodeCtx *dc, int32_t fi, const Ins *in, int32_t ir)
{
	const ImgFunc *f = &dc->img->funcs[fi];
	DIns *d = emit(dc, in, fi, ir);
	if (in->guard >= 0) {
		d->guard = (int16_t)f->slot_of[in->guard];
		d->guard_neg = in->guard_neg;
	}
	switch ((OpKind)op_info[in->op].kind) {
	case KIND_ARITH: case KIND_SETP:
		if (decode_alu(dc, fi, in)) return RF_EINPUT;
		dec_pick_fast(dec_cur(dc));
		return RF_OK;
	case KIND_MOV: return decode_mov(dc, fi, in);
	case KIND_ADDR:
		return decode_plain(dc, fi, in, in->op == OP_ISSPACEP ? PT_B64 : (PtxType)in->type);
	case KIND_LD: return decode_ld(dc, fi, in);
	case KIND_ST: return decode_st(dc, fi, in);
	case KIND_ATOM: return decode_atom(dc, fi, in);
	case KIND_WARP: return decode_plain(dc, fi, in, (PtxType)(in->type ? in->type : PT_B32));
	case KIND_BAR:
		if (in->mode == MODE_RED && in->aop == AOP_NONE) return dec_bad(dc, in, "this bar.red");
		return decode_plain(dc, fi, in, PT_U32);
	case KIND_BRA:
		if (in->ns + in->nd < 1 || in->o[in->nd + in->ns - 1].kind != OPK_LABEL)
			return dec_bad(dc, in, "branches without a label target");
		d->target = in->o[in->nd + in->ns - 1].reg;    /* label id, resolved later */
		return RF_OK;
	case KIND_CALL: return decode_call(dc, fi, in);
	case KIND_RET: case KIND_TRAP: case KIND_HINT:
		return RF_OK;
	case KIND_RFOP:                     /* rfsim.prefetch o[0]: the set's index, in imm */
		if (in->op == OP_RF_PREFETCH && in->nd + in->ns > 0 && in->o[0].kind == OPK_IMM)
			d->imm = in->o[0].imm;
		return RF_OK;
	case KIND_ASYNC:
		return in->op == OP_CP_BULK ? decode_cp_bulk(dc, fi, in) : decode_cp_async(dc, fi, in);
	case KIND_WAIT:                     /* cp.async.wait_group: the group count, in imm */
		if (in->op == OP_CP_WAIT) d->imm = in->o[0].imm;
		return RF_OK;
	case KIND_MBAR: return decode_mbar(dc, fi, in);
	case KIND_TENSOR:
		if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) return decode_wmma_mem(dc, fi, in);
		if (in->op == OP_WMMA_MMA || in->op == OP_MMA) return decode_wmma_mma(dc, fi, in);
		return decode_matrix_mem(dc, fi, in);    /* ldmatrix, stmatrix */
	case KIND_TEX: return decode_tex(dc, fi, in);
	case KIND_PSEUDO:
		break;
	}
	die("decode_one: pseudo instruction");
}

/* does code[from..to], a loop's body in code order, poll memory another thread may change:
 * an atomic that returns a value, a load with a memory order or .volatile, a plain load
 * beside a fence, or a call, which may do any of these (a -G build calls atomicCAS)
 * (DF_SPIN) */
static int polls(const DIns *code, int32_t from, int32_t to)
{
	int loads = 0, fence = 0;
	for (int32_t pc = from; pc <= to; pc++) {
		const DIns *d = &code[pc];
		if (d->op == OP_ATOM || (d->op == OP_CALL && !(d->flags & DF_BUILTIN))) return 1;
		if (d->op == OP_LD || d->op == OP_LDU) {
			if (d->mods & (MOD_VOLATILE | MOD_RELAXED | MOD_ACQUIRE | MOD_SC)) return 1;
			loads = 1;
		}
		fence |= d->op == OP_MEMBAR || d->op == OP_FENCE;
	}
	return loads && fence;
}

int decode_func(DecodeCtx *dc, int32_t fi)
{
	Image *img = dc->img;
	ImgFunc *f = &img->funcs[fi];
	const Func *fn = &dc->m->funcs[f->ir_func];
	int32_t *pc_of = xmalloc((size_t)(fn->nins + 1) * sizeof *pc_of);
	dc->scratch = -1;
	f->entry = img->ncode;
	for (int32_t i = 0; i < fn->nins; i++) {
		pc_of[i] = img->ncode;
		if (op_info[fn->ins[i].op].flags & OPF_PSEUDO) continue;
		if (decode_one(dc, fi, &fn->ins[i], i)) {
			free(pc_of);
			return RF_EINPUT;
		}
	}
	pc_of[fn->nins] = img->ncode;
	/* falling off the end returns (a kernel: exits) */
	Ins ret = {.op = OP_RET, .guard = -1, .line = fn->nins ? fn->ins[fn->nins - 1].line : fn->line};
	emit(dc, &ret, fi, fn->nins)->flags |= DF_INTERNAL;
	f->end = img->ncode;
	Cfg *cfg = cfg_build(fn);
	for (int32_t pc = f->entry; pc < f->end; pc++) {
		DIns *d = &img->code[pc];
		if (d->op != OP_BRA) continue;
		d->target = pc_of[fn->labels[d->target].ins];
		int32_t r = cfg_reconverge_pc(cfg, d->ir);
		d->reconv = r >= 0 ? pc_of[r] : -1;
		if (d->guard >= 0) d->flags |= DF_DIVERGE;
		if (d->target <= pc && polls(img->code, d->target, pc)) d->flags |= DF_SPIN;
	}
	cfg_free(cfg);
	free(pc_of);
	return RF_OK;
}

int decode_finish(DecodeCtx *dc)
{
	Image *img = dc->img;
	for (int32_t pc = 0; pc < img->ncode; pc++) {
		DIns *d = &img->code[pc];
		if (d->op == OP_CALL && !(d->flags & (DF_BUILTIN | DF_INDIRECT)))
			d->target = img->funcs[img->calls[d->aux].callee].entry;
	}
	return RF_OK;
}

void decode_ctx_free(DecodeCtx *dc)
{
	free(dc->addr);
	free(dc->img_of_func);
	free(dc->immkey);
	free(dc->immval);
}
