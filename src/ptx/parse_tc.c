/*
 * parse_tc.c -- the sm_80 data-movement and tensor-core instructions:
 * cp.async (and its commit_group / wait_group / wait_all) and wmma.load,
 * wmma.store, wmma.mma.  Their mnemonics have two or three fixed parts,
 * their modifiers (fragment .a/.b/.c/.d, layouts .row/.col, shapes such as
 * .m16n16k16, up to four types) belong to no other instruction, and their
 * operands are checked against the PTX ISA's rules here:
 *
 *   cp.async.ca|cg.shared{::cta}.global{hints} [dst], [src], cp-size
 *            {, src-size | ignore-src}{, cache-policy};
 *       cp-size 4, 8 or 16 (.cg: 16); src-size a u32 register or an
 *       immediate <= cp-size; ignore-src a predicate; cache-policy a
 *       64-bit register.
 *   wmma.load.a|b|c.sync.aligned.layout.shape{.space}.type  {frag}, [p]{, stride};
 *   wmma.store.d.sync.aligned.layout.shape{.space}.type  [p], {frag}{, stride};
 *   wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype  (f16 a, b)
 *   wmma.mma.sync.aligned.alayout.blayout.shape.dtype.atype.btype.ctype{.satfinite|.rnd}
 *       every fragment a vector of exactly the registers the ISA's tables
 *       give (mma.c), each of the fragment's register width.
 *
 *   mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype{.rn}  d, a, b, c;
 *       the shapes and types of mma.c's table (c and d of one type, as ptxas
 *       requires), each fragment the vector the
 *       ISA's "Matrix fragments for mma.m*n*k*" gives; .satfinite for the
 *       integer forms, .rn for .f64.
 *   ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16  r, [p];
 *   stmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16  [p], r;
 *       r a vector of 1, 2 or 4 32-bit registers (x1: or one register).
 *
 * cp.async.mbarrier.arrive is parse_mbar.c's.  The bulk and tensor forms of
 * cp.async, mma.sp, wgmma, and the mma
 * and ldmatrix forms outside these (sub-byte, fp8, .m8n8k4 .f16, .m16n16,
 * block scaling) are refused by name.
 */
#include <string.h>

#include "ptx/parse.h"

static int eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

/* start and length of dotted segment k (0-based) of t, or 0 if none */
static size_t seg(const Tok *t, int k, const char **at)
{
	const char *s = t->s, *e = t->s + t->len;
	for (int i = 0; i < k; i++) {
		while (s < e && *s != '.') s++;
		if (s == e) return 0;
		s++;
	}
	const char *q = s;
	while (q < e && *q != '.') q++;
	*at = s;
	return (size_t)(q - s);
}

__attribute__((noreturn))
static void refuse_n(Parser *p, const Tok *t, int nseg)
{
	const char *s;
	size_t end = 0;
	for (int k = 0; k < nseg; k++) {
		size_t n = seg(t, k, &s);
		if (!n) break;
		end = (size_t)(s - t->s) + n;
	}
	p_error_at(p, t, "unsupported PTX instruction '%.*s' (rfsim does not implement it)",
	           (int)end, t->s);
}

int ptc_op(Parser *p, const Tok *t, size_t *used)
{
	const char *s0 = t->s, *s1 = t->s, *s2 = t->s;
	size_t n0 = seg(t, 0, &s0), n1 = seg(t, 1, &s1), n2 = seg(t, 2, &s2);
	if (eq(s0, n0, "cp")) {
		if (!eq(s1, n1, "async")) refuse_n(p, t, 2);
		static const struct { const char *w; int op; } three[] = {
			{"commit_group", OP_CP_COMMIT}, {"wait_group", OP_CP_WAIT},
			{"wait_all", OP_CP_WAITALL}, {"ca", OP_CP_ASYNC}, {"cg", OP_CP_ASYNC},
		};
		for (size_t i = 0; n2 && i < sizeof three / sizeof *three; i++) {
			if (!eq(s2, n2, three[i].w)) continue;
			*used = three[i].op == OP_CP_ASYNC ? (size_t)(s1 - t->s) + n1
			                                   : (size_t)(s2 - t->s) + n2;
			return three[i].op;
		}
		if (eq(s2, n2, "bulk")) {
			const char *s3 = s2;
			size_t n3 = seg(t, 3, &s3);
			if (eq(s3, n3, "tensor")) refuse_n(p, t, 4);
			if (eq(s3, n3, "prefetch")) {
				const char *s4 = s3;
				size_t n4 = seg(t, 4, &s4);
				if (eq(s4, n4, "tensor")) refuse_n(p, t, 5);
			}
			*used = (size_t)(s2 - t->s) + n2;
			return OP_CP_BULK;
		}
		if (eq(s2, n2, "mbarrier")) {
			const char *s3 = s2;
			size_t n3 = seg(t, 3, &s3);
			if (!eq(s3, n3, "arrive")) refuse_n(p, t, 4);
			*used = (size_t)(s3 - t->s) + n3;
			return OP_CP_MBAR;
		}
		refuse_n(p, t, 3);                                 /* .bulk, .reduce */
	}
	if (eq(s0, n0, "mma") || eq(s0, n0, "ldmatrix") || eq(s0, n0, "stmatrix")) {
		if (!eq(s1, n1, "sync")) refuse_n(p, t, 2);           /* mma.sp, ... */
		*used = n0;
		return s0[0] == 'm' ? OP_MMA : s0[0] == 'l' ? OP_LDMATRIX : OP_STMATRIX;
	}
	if (eq(s0, n0, "wmma")) {
		int op = eq(s1, n1, "load") ? OP_WMMA_LOAD : eq(s1, n1, "store") ? OP_WMMA_STORE
		       : eq(s1, n1, "mma") ? OP_WMMA_MMA : -1;
		if (op < 0) refuse_n(p, t, 2);
		*used = (size_t)(s1 - t->s) + n1;
		return op;
	}
	return -1;
}

enum { TC_CACHE = 1, TC_GLOBAL = 2, TC_LAYOUTS = 4, TC_TYPES = 16 };   /* *st */

__attribute__((noreturn))
static void bad_mod(Parser *p, const Tok *t, const char *s, size_t n)
{
	p_error_at(p, t, "unexpected modifier '.%.*s' in '%.*s'", (int)n, s, (int)t->len, t->s);
}

/* cp.async.bulk's modifiers: each one kept in the hints (the listing prints
 * them back as written), what it means in Ins.mode and Ins.frag (BULK*) */
static void bulk_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n)
{
	int f = in->frag, first = !f && !in->mode;
	if (first && (eq(s, n, "commit_group") || eq(s, n, "wait_group") || eq(s, n, "prefetch"))) {
		in->mode = s[0] == 'c' ? BULK_COMMIT : s[0] == 'w' ? BULK_WAIT : BULK_PREFETCH;
		return;
	}
	if (in->mode == BULK_WAIT && eq(s, n, "read") && !(f & BULKF_READ)) {
		in->frag |= BULKF_READ;
	} else if (in->mode == BULK_PREFETCH && (eq(s, n, "L2") || eq(s, n, "global"))) {
		if (s[0] == 'g') in->frag |= BULKF_SRC_SET;
	} else if (in->mode == BULK_COMMIT || in->mode == BULK_WAIT) {
		bad_mod(p, t, s, n);
	} else if (eq(s, n, "shared::cluster") || eq(s, n, "shared::cta") || eq(s, n, "global")) {
		int sh = s[0] == 's';
		if (in->mode == BULK_PREFETCH || (f & BULKF_SRC_SET)) bad_mod(p, t, s, n);
		if (!(f & BULKF_DST_SET)) in->frag |= BULKF_DST_SET | (sh ? BULKF_DST_SHARED : 0);
		else in->frag |= BULKF_SRC_SET | (sh ? BULKF_SRC_SHARED : 0);
	} else if (eq(s, n, "mbarrier::complete_tx::bytes") && in->mode != BULK_PREFETCH &&
	           !(f & (BULKF_MBAR | BULKF_GROUP))) {
		in->frag |= BULKF_MBAR;
	} else if (eq(s, n, "bulk_group") && in->mode != BULK_PREFETCH &&
	           !(f & (BULKF_MBAR | BULKF_GROUP))) {
		in->frag |= BULKF_GROUP;
	} else if (eq(s, n, "multicast::cluster") && !(f & BULKF_MULTICAST)) {
		in->frag |= BULKF_MULTICAST;
	} else if (eq(s, n, "L2::cache_hint") && !(f & BULKF_HINT)) {
		in->frag |= BULKF_HINT;
	} else {
		bad_mod(p, t, s, n);
	}
}

/* the form, from the modifiers, and its operands: [address]es where the ISA has
 * them, registers or integers elsewhere */
static void bulk_check(Parser *p, const Tok *t, Ins *in)
{
	int f = in->frag, need, nad;
	if (!in->mode) {
		int dsh = (f & BULKF_DST_SHARED) != 0, ssh = (f & BULKF_SRC_SHARED) != 0;
		if (!(f & BULKF_SRC_SET)) in->mode = 0;
		else if (dsh && !ssh && (f & BULKF_MBAR)) in->mode = BULK_G2S;
		else if (dsh && ssh && (f & BULKF_MBAR) && !(f & (BULKF_MULTICAST | BULKF_HINT)))
			in->mode = BULK_S2S;
		else if (!dsh && ssh && (f & BULKF_GROUP) && !(f & BULKF_MULTICAST))
			in->mode = BULK_S2G;
		if (!in->mode)
			p_error_at(p, t, "'%.*s': rfsim knows cp.async.bulk.{shared::cluster|shared::cta}"
			           ".global.mbarrier::complete_tx::bytes{.multicast::cluster}"
			           "{.L2::cache_hint}, cp.async.bulk.shared::cluster.shared::cta.mbarrier"
			           "::complete_tx::bytes, cp.async.bulk.global.shared::cta.bulk_group"
			           "{.L2::cache_hint}, .prefetch.L2.global, .commit_group and "
			           ".wait_group{.read}", (int)t->len, t->s);
	}
	switch (in->mode) {
	case BULK_COMMIT: need = 0, nad = 0; break;
	case BULK_WAIT: need = 1, nad = 0; break;
	case BULK_PREFETCH: need = 2, nad = 1; break;
	case BULK_S2G: need = 3, nad = 2; break;
	default: need = 4, nad = 2; break;
	}
	need += (f & BULKF_MULTICAST) != 0;
	need += (f & BULKF_HINT) != 0;
	if (in->mode == BULK_PREFETCH && !(f & BULKF_SRC_SET))
		p_error_at(p, t, "'%.*s': the form is cp.async.bulk.prefetch.L2.global", (int)t->len,
		           t->s);
	if (in->ns != need)
		p_error_at(p, t, "'%.*s' takes %d operands, found %d", (int)t->len, t->s, need, in->ns);
	for (int k = 0; k < in->ns; k++) {
		int addr = k < nad || (k == 3 && (in->mode == BULK_G2S || in->mode == BULK_S2S));
		if ((in->o[k].kind == OPK_ADDR) != addr)
			p_error_at(p, t, "operand %d of '%.*s' must %sbe an [address]", k + 1,
			           (int)t->len, t->s, addr ? "" : "not ");
	}
	if (in->mode == BULK_WAIT && in->o[0].kind != OPK_IMM)
		p_error_at(p, t, "'%.*s' takes an integer", (int)t->len, t->s);
}

static void cp_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n, int *st)
{
	if (in->op != OP_CP_ASYNC) bad_mod(p, t, s, n);
	if (eq(s, n, "ca") || eq(s, n, "cg")) {
		if (*st & TC_CACHE) p_error_at(p, t, "conflicting cache operators in '%.*s'",
		                               (int)t->len, t->s);
		*st |= TC_CACHE;
		if (s[1] == 'g') in->mods |= MOD_CG;
	} else if (eq(s, n, "shared") || eq(s, n, "shared::cta")) {
		in->space = SP_SHARED;
	} else if (eq(s, n, "global")) {
		*st |= TC_GLOBAL;
	} else if (!memchr(s, ':', n)) {
		bad_mod(p, t, s, n);
	}
}

__attribute__((noreturn))
static void refuse_mod(Parser *p, const Tok *t, const char *s, size_t n)
{
	p_error_at(p, t, "unsupported PTX instruction form '%.*s' (rfsim does not implement "
	           "'.%.*s' here)", (int)t->len, t->s, (int)n, s);
}

/* ldmatrix/stmatrix: .m8n8, .x1/.x2/.x4, .trans, .shared, .b16 */
static void ldst_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n)
{
	if (eq(s, n, "sync")) in->mods |= MOD_SYNC;
	else if (eq(s, n, "aligned")) in->mods |= MOD_ALIGNED;
	else if (eq(s, n, "trans")) in->mods |= MOD_TRANS;
	else if (eq(s, n, "m8n8") && !in->shape) in->shape = MMA_M8N8;
	else if ((eq(s, n, "x1") || eq(s, n, "x2") || eq(s, n, "x4")) && !in->frag)
		in->frag = (uint8_t)(s[1] - '0');
	else if ((eq(s, n, "shared") || eq(s, n, "shared::cta")) && !in->space)
		in->space = SP_SHARED;
	else if (eq(s, n, "b16") && !in->type) in->type = PT_B16;
	else if (eq(s, n, "m16n16") || eq(s, n, "m8n16") || eq(s, n, "m16n8") || eq(s, n, "b8"))
		refuse_mod(p, t, s, n);
	else bad_mod(p, t, s, n);
}

void ptc_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n, int *st,
                  char *hints, size_t *nhints, size_t cap)
{
	if (in->op == OP_CP_BULK) {
		bulk_modifier(p, t, in, s, n);
		if (*nhints + n + 2 > cap) p_error_at(p, t, "too many modifiers");
		hints[(*nhints)++] = '.';
		memcpy(hints + *nhints, s, n);
		*nhints += n;
		return;
	}
	if (in->op == OP_CP_ASYNC || in->op == OP_CP_COMMIT || in->op == OP_CP_WAIT ||
	    in->op == OP_CP_WAITALL) {
		cp_modifier(p, t, in, s, n, st);
		if (memchr(s, ':', n) && !eq(s, n, "shared::cta")) {
			if (*nhints + n + 2 > cap) p_error_at(p, t, "too many cache hints");
			hints[(*nhints)++] = '.';
			memcpy(hints + *nhints, s, n);
			*nhints += n;
		}
		return;
	}
	if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX) {
		ldst_modifier(p, t, in, s, n);
		return;
	}
	int mma = in->op == OP_WMMA_MMA || in->op == OP_MMA;
	static const char *const frags[] = {"a", "b", "c", "d"};
	for (int f = 0; f < 4; f++)
		if (eq(s, n, frags[f]) && !mma) {
			if (in->frag) bad_mod(p, t, s, n);
			in->frag = (uint8_t)(FRAG_A + f);
			return;
		}
	for (int k = 1; k < NMMASHAPE; k++)
		if (eq(s, n, mma_shape_name[k])) {
			if (in->shape) bad_mod(p, t, s, n);
			in->shape = (uint8_t)k;
			return;
		}
	if (eq(s, n, "row") || eq(s, n, "col")) {
		int l = s[0] == 'r' ? LAYOUT_ROW : LAYOUT_COL, k = *st / TC_LAYOUTS % 4;
		if (k >= (mma ? 2 : 1)) bad_mod(p, t, s, n);
		in->layout |= (uint8_t)(l << (4 * k));
		*st += TC_LAYOUTS;
		return;
	}
	if (eq(s, n, "sync")) { in->mods |= MOD_SYNC; return; }
	if (eq(s, n, "aligned")) { in->mods |= MOD_ALIGNED; return; }
	if (mma && eq(s, n, "satfinite")) { in->mods |= MOD_SATFINITE; return; }
	if (mma && (eq(s, n, "rn") || eq(s, n, "rz") || eq(s, n, "rm") || eq(s, n, "rp"))) {
		static const uint8_t r[] = {RND_RN, RND_RZ, RND_RM, RND_RP};
		in->rnd = r[s[1] == 'n' ? 0 : s[1] == 'z' ? 1 : s[1] == 'm' ? 2 : 3];
		return;
	}
	if (!mma && (eq(s, n, "global") || eq(s, n, "shared") || eq(s, n, "shared::cta"))) {
		if (in->space) bad_mod(p, t, s, n);
		in->space = s[0] == 'g' ? SP_GLOBAL : SP_SHARED;
		return;
	}
	PtxType ty = ptxtype_lookup(s, n);
	int nt = *st / TC_TYPES;
	if (in->op == OP_MMA && (ty == PT_NONE || nt >= 4)) refuse_mod(p, t, s, n);
	if (ty == PT_NONE || nt >= (mma ? 4 : 1)) bad_mod(p, t, s, n);
	uint8_t *slot[4] = {&in->type, &in->type2, &in->type3, &in->type4};
	*slot[nt] = (uint8_t)ty;
	*st += TC_TYPES;
}

/* ---- operand checks --------------------------------------------------------- */

static void need(Parser *p, const Tok *t, int ok, const char *what)
{
	if (!ok) p_error_at(p, t, "'%.*s': %s", (int)t->len, t->s, what);
}

static int reg_bytes(const Parser *p, const Operand *o)
{
	return o->kind == OPK_REG ? ptxtype_size((PtxType)p->regtype[o->reg]) : -1;
}

static void cp_check(Parser *p, const Tok *t, const Ins *in, int st)
{
	if (in->op != OP_CP_ASYNC) {
		need(p, t, in->op != OP_CP_WAIT || in->o[0].kind == OPK_IMM,
		     "the group count must be an integer constant");
		return;
	}
	need(p, t, (st & TC_CACHE) && in->space == SP_SHARED && (st & TC_GLOBAL),
	     "cp.async needs .ca or .cg, .shared and .global");
	need(p, t, in->o[0].kind == OPK_ADDR && in->o[1].kind == OPK_ADDR,
	     "cp.async takes [dst], [src]");
	const Operand *sz = &in->o[2];
	need(p, t, sz->kind == OPK_IMM && (sz->imm == 4 || sz->imm == 8 || sz->imm == 16),
	     "cp-size must be 4, 8 or 16");
	need(p, t, !(in->mods & MOD_CG) || sz->imm == 16, "cp.async.cg copies 16 bytes");
	for (int k = 3; k < in->ns; k++) {
		const Operand *o = &in->o[k];
		int b = reg_bytes(p, o), pred = o->kind == OPK_REG && p->regtype[o->reg] == PT_PRED;
		if (b == 8) {
			need(p, t, k == in->ns - 1, "the cache policy is the last operand");
		} else {
			need(p, t, k == 3 && (pred || b == 4 || o->kind == OPK_IMM),
			     "the fourth operand is src-size (u32) or ignore-src (a predicate)");
			need(p, t, o->kind != OPK_IMM || (o->imm >= 0 && o->imm <= sz->imm),
			     "src-size must be at most cp-size");
			need(p, t, !(o->flags & OPDF_NEG) || pred, "'!' before a non-predicate");
		}
	}
}

static void frag_check(Parser *p, const Tok *t, const Ins *in, const Operand *v, int frag,
                       PtxType ty)
{
	static const char *const fn[] = {"", "a", "b", "c", "d"};
	MmaFrag f;
	if (!(in->op == OP_MMA ? mma_sync_frag : mma_frag)(in->shape, frag, ty, &f))
		p_error_at(p, t, "'%.*s': no .%s fragment of .%s for shape .%s", (int)t->len, t->s,
		           fn[frag], ptxtype_name[ty], mma_shape_name[in->shape]);
	if (v->kind != OPK_VEC || v->n != f.nregs)
		p_error_at(p, t, "'%.*s': the %s fragment is a vector of %d registers", (int)t->len,
		           t->s, fn[frag], f.nregs);
	for (int i = 0; i < v->n; i++) {
		const Operand *e = &p->vops[v->reg + i];
		if (e->kind != OPK_REG || reg_bytes(p, e) * 8 != f.reg_bits ||
		    p->regtype[e->reg] == PT_PRED)
			p_error_at(p, t, "'%.*s': element %d of the %s fragment must be a %d-bit "
			           "register", (int)t->len, t->s, i + 1, fn[frag], f.reg_bits);
	}
}

static void mma_types(Parser *p, const Tok *t, const Ins *in)
{
	PtxType a = mma_type(in, FRAG_A), b = mma_type(in, FRAG_B);
	PtxType c = mma_type(in, FRAG_C), d = mma_type(in, FRAG_D);
	int ok;
	if (!in->type3) ok = in->type2 && (c == PT_F16 || c == PT_F32) &&
	                     (d == PT_F16 || d == PT_F32);
	else if (a == PT_S8 || a == PT_U8) ok = (b == PT_S8 || b == PT_U8) && c == PT_S32 &&
	                                        d == PT_S32;
	else ok = a == b && c == d && a != PT_F16 && (a == PT_F64) == (c == PT_F64);
	need(p, t, ok, "unsupported combination of types");
	need(p, t, !in->rnd || d == PT_F64, "a rounding modifier belongs to .f64 only");
	need(p, t, !(in->mods & MOD_SATFINITE) || d != PT_F64, ".satfinite is not for .f64");
}

/* mma.sync: shape, .row.col, four types in one of mma.c's combinations */
static void mma_sync_check(Parser *p, const Tok *t, const Ins *in, int st)
{
	need(p, t, in->shape != MMA_NONE, "missing shape (.m16n8k16, ...)");
	need(p, t, (in->mods & MOD_SYNC) && (in->mods & MOD_ALIGNED), "needs .sync.aligned");
	need(p, t, in->layout == (LAYOUT_ROW | LAYOUT_COL << 4), "needs .row.col");
	need(p, t, st / TC_TYPES == 4, "needs four types (.dtype.atype.btype.ctype)");
	PtxType a = mma_type(in, FRAG_A), b = mma_type(in, FRAG_B);
	PtxType c = mma_type(in, FRAG_C), d = mma_type(in, FRAG_D);
	int integer = a == PT_S8 || a == PT_U8;
	MmaFrag f;
	for (int k = FRAG_A; k <= FRAG_D; k++)
		if (!mma_sync_frag(in->shape, k, mma_type(in, k), &f))
			p_error_at(p, t, "unsupported PTX instruction form '%.*s' (rfsim implements "
			           "mma.sync m16n8k16/m16n8k8 .f16/.bf16, m16n8k8/m16n8k4 .tf32, "
			           "m16n8k16/m16n8k32 .s8/.u8, m8n8k4 .f64)", (int)t->len, t->s);
	int ok = integer ? (b == PT_S8 || b == PT_U8) && c == PT_S32 && d == PT_S32
	       : a == b && c == d && c != PT_S32 && (a == PT_F16 || c != PT_F16);
	need(p, t, ok, "unsupported combination of types (c and d of one type: .f16 or .f32 "
	     "for .f16, .f32 for .bf16/.tf32, .s32 for .s8/.u8)");
	need(p, t, !in->rnd || (d == PT_F64 && in->rnd == RND_RN), "only .f64 takes .rn");
	need(p, t, !(in->mods & MOD_SATFINITE) || integer, ".satfinite is for .s8/.u8 only");
	for (int k = 0; k < 4; k++)
		frag_check(p, t, in, &in->o[k], k == 0 ? FRAG_D : k, mma_type(in, k == 0 ? FRAG_D : k));
}

/* ldmatrix/stmatrix: r a vector of .x 32-bit registers, [p] shared or generic */
static void ldst_check(Parser *p, const Tok *t, const Ins *in)
{
	need(p, t, (in->mods & MOD_SYNC) && (in->mods & MOD_ALIGNED), "needs .sync.aligned");
	need(p, t, in->shape == MMA_M8N8, "needs shape .m8n8");
	need(p, t, in->frag != 0, "needs .x1, .x2 or .x4");
	need(p, t, in->type == PT_B16, "needs type .b16");
	int ld = in->op == OP_LDMATRIX;
	const Operand *v = &in->o[ld ? 0 : 1];
	need(p, t, in->o[ld ? 1 : 0].kind == OPK_ADDR, "needs an [address]");
	int n = v->kind == OPK_VEC ? v->n : 1;
	if (n != in->frag || (v->kind != OPK_VEC && v->kind != OPK_REG))
		p_error_at(p, t, "'%.*s': r is a vector of %d registers", (int)t->len, t->s,
		           in->frag);
	for (int i = 0; i < n; i++) {
		const Operand *e = v->kind == OPK_VEC ? &p->vops[v->reg + i] : v;
		need(p, t, e->kind == OPK_REG && reg_bytes(p, e) == 4 &&
		     p->regtype[e->reg] != PT_PRED, "r holds 32-bit registers");
	}
}

void ptc_check(Parser *p, const Tok *t, Ins *in, int st)
{
	if (in->op == OP_CP_BULK) {
		bulk_check(p, t, in);
		return;
	}
	if (in->op == OP_MMA) {
		mma_sync_check(p, t, in, st);
		return;
	}
	if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX) {
		ldst_check(p, t, in);
		return;
	}
	if (in->op != OP_WMMA_LOAD && in->op != OP_WMMA_STORE && in->op != OP_WMMA_MMA) {
		cp_check(p, t, in, st);
		return;
	}
	need(p, t, in->shape != MMA_NONE, "missing shape (.m16n16k16, ...)");
	if (in->op == OP_WMMA_MMA) {
		need(p, t, st / TC_LAYOUTS % 4 == 2, "needs two layouts (.row/.col)");
		mma_types(p, t, in);
		for (int f = 0; f < 4; f++)
			frag_check(p, t, in, &in->o[f], f == 0 ? FRAG_D : f,
			           mma_type(in, f == 0 ? FRAG_D : f));
		return;
	}
	int ld = in->op == OP_WMMA_LOAD;
	need(p, t, st / TC_LAYOUTS % 4 == 1, "needs a layout (.row/.col)");
	need(p, t, st / TC_TYPES == 1, "needs one type");
	need(p, t, ld ? in->frag && in->frag != FRAG_D : in->frag == FRAG_D,
	     ld ? "loads fragment .a, .b or .c" : "stores fragment .d");
	need(p, t, in->space == SP_NONE || in->space == SP_GLOBAL || in->space == SP_SHARED,
	     "state space must be .global, .shared or generic");
	frag_check(p, t, in, &in->o[ld ? 0 : 1], in->frag, (PtxType)in->type);
	const Operand *a = &in->o[ld ? 1 : 0];
	need(p, t, a->kind == OPK_ADDR, "needs an [address]");
	if (in->ns == (ld ? 2 : 3)) {
		const Operand *s = &in->o[ld ? 2 : 2];
		need(p, t, s->kind == OPK_IMM || (reg_bytes(p, s) == 4 &&
		                                   p->regtype[s->reg] != PT_PRED),
		     "the stride is a 32-bit register or an integer");
	}
}
