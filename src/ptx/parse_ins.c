/*
 * parse_ins.c -- PTX instructions: mnemonic, modifiers, operands.
 *
 * An instruction is one TK_IDENT `op.mod.mod...` (lex.h) and its operands.
 * Each dotted modifier is looked up in one table and stored in the Ins
 * field of its class (ir.h); the few spellings whose meaning depends on
 * the opcode are resolved here:
 *
 *   .lo .hi        comparison for setp/set, otherwise mul/mad mode
 *   .and .or .xor  boolean op for setp/set, otherwise atomic operation
 *   .sync          MOD_SYNC for shfl/vote/match/redux, MODE_SYNC for bar/barrier
 *   .uni           MODE_UNI for vote, MOD_UNI for bra/call/ret
 *   .all .any      vote mode, or match mode (MODE_MATCH_*)
 *   .cta .gpu ...  memory scope: Ins.mode of membar/fence/ld/st/atom/red
 *
 * The first type written is Ins.type and the second Ins.type2, whatever
 * the opcode: cvt.f32.s32 and set.lt.u32.f32 have type = the result type
 * (f32, u32), type2 = the source type (s32, f32).
 * Cache operators and every `::` qualifier (.L2::cache_hint,
 * .L1::no_allocate) are kept verbatim, in order, in Ins.hints.
 *
 * Operands: registers (declared, or %name<N> ranges), special registers,
 * immediates (decimal floats become f32 bits in an f32 instruction, f64
 * bits otherwise), symbols, [addresses], {vectors}, `_`, labels (branch
 * targets), `!p` (and `!1`, a constant predicate) and `a|b`.  Unknown
 * names are errors here; the operand counts come from the instruction's
 * form (ops.def, form.c), and parse_check.c checks each operand's kind and
 * type against it as ptxas does.  Mnemonics of real PTX instructions that
 * rfsim does not implement are refused by name.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "ptx/parse.h"

/* ---- modifiers ------------------------------------------------------------ */

enum {                       /* ModDef.cls */
	MC_TYPE, MC_CMP, MC_RND, MC_AOP, MC_LOGIC, MC_LOHI, MC_MODE, MC_SCOPE, MC_MOD, MC_VEC,
	MC_HINT, MC_SPACE, MC_SYNC, MC_UNI, MC_VOTE, MC_BAD,
};

typedef struct ModDef {
	const char *name;
	uint8_t cls;
	uint32_t val;
} ModDef;

static const ModDef moddefs[] = {
	{"eq", MC_CMP, CMP_EQ}, {"ne", MC_CMP, CMP_NE}, {"lt", MC_CMP, CMP_LT},
	{"le", MC_CMP, CMP_LE}, {"gt", MC_CMP, CMP_GT}, {"ge", MC_CMP, CMP_GE},
	{"ls", MC_CMP, CMP_LS}, {"hs", MC_CMP, CMP_HS}, {"equ", MC_CMP, CMP_EQU},
	{"neu", MC_CMP, CMP_NEU}, {"ltu", MC_CMP, CMP_LTU}, {"leu", MC_CMP, CMP_LEU},
	{"gtu", MC_CMP, CMP_GTU}, {"geu", MC_CMP, CMP_GEU}, {"num", MC_CMP, CMP_NUM},
	{"nan", MC_CMP, CMP_NAN},
	{"lo", MC_LOHI, 0}, {"hi", MC_LOHI, 1},
	{"rn", MC_RND, RND_RN}, {"rz", MC_RND, RND_RZ}, {"rm", MC_RND, RND_RM},
	{"rp", MC_RND, RND_RP}, {"rni", MC_RND, RND_RNI}, {"rzi", MC_RND, RND_RZI},
	{"rmi", MC_RND, RND_RMI}, {"rpi", MC_RND, RND_RPI}, {"rna", MC_RND, RND_RNA},
	{"rs", MC_RND, RND_RS},
	{"and", MC_LOGIC, 0}, {"or", MC_LOGIC, 1}, {"xor", MC_LOGIC, 2},
	{"cas", MC_AOP, AOP_CAS}, {"exch", MC_AOP, AOP_EXCH}, {"add", MC_AOP, AOP_ADD},
	{"inc", MC_AOP, AOP_INC}, {"dec", MC_AOP, AOP_DEC}, {"min", MC_AOP, AOP_MIN},
	{"max", MC_AOP, AOP_MAX}, {"popc", MC_AOP, AOP_POPC},
	{"wide", MC_MODE, MODE_WIDE}, {"up", MC_MODE, MODE_UP}, {"down", MC_MODE, MODE_DOWN},
	{"bfly", MC_MODE, MODE_BFLY}, {"idx", MC_MODE, MODE_IDX},
	{"ballot", MC_MODE, MODE_BALLOT}, {"arrive", MC_MODE, MODE_ARRIVE},
	{"red", MC_MODE, MODE_RED}, {"finite", MC_MODE, MODE_FINITE},
	{"infinite", MC_MODE, MODE_INFINITE}, {"number", MC_MODE, MODE_NUMBER},
	{"notanumber", MC_MODE, MODE_NOTANUMBER}, {"normal", MC_MODE, MODE_NORMAL},
	{"subnormal", MC_MODE, MODE_SUBNORMAL}, {"f4e", MC_MODE, MODE_F4E},
	{"b4e", MC_MODE, MODE_B4E}, {"rc8", MC_MODE, MODE_RC8}, {"ecl", MC_MODE, MODE_ECL},
	{"ecr", MC_MODE, MODE_ECR}, {"rc16", MC_MODE, MODE_RC16}, {"l", MC_MODE, MODE_L},
	{"r", MC_MODE, MODE_R},
	{"all", MC_VOTE, 0}, {"any", MC_VOTE, 1}, {"uni", MC_UNI, 0}, {"sync", MC_SYNC, 0},
	{"cta", MC_SCOPE, MODE_CTA}, {"gl", MC_SCOPE, MODE_GL}, {"gpu", MC_SCOPE, MODE_GPU},
	{"sys", MC_SCOPE, MODE_SYS}, {"cluster", MC_SCOPE, MODE_CLUSTER},
	{"ftz", MC_MOD, MOD_FTZ}, {"sat", MC_MOD, MOD_SAT}, {"approx", MC_MOD, MOD_APPROX},
	{"full", MC_MOD, MOD_FULL}, {"cc", MC_MOD, MOD_CC}, {"aligned", MC_MOD, MOD_ALIGNED},
	{"to", MC_MOD, MOD_TO}, {"nc", MC_MOD, MOD_NC}, {"volatile", MC_MOD, MOD_VOLATILE},
	{"relaxed", MC_MOD, MOD_RELAXED}, {"acquire", MC_MOD, MOD_ACQUIRE},
	{"release", MC_MOD, MOD_RELEASE}, {"acq_rel", MC_MOD, MOD_ACQ_REL},
	{"weak", MC_MOD, MOD_WEAK}, {"sc", MC_MOD, MOD_SC}, {"clamp", MC_MOD, MOD_CLAMP},
	{"wrap", MC_MOD, MOD_WRAP}, {"shiftamt", MC_MOD, MOD_SHIFTAMT},
	{"noftz", MC_MOD, MOD_NOFTZ}, {"NaN", MC_MOD, MOD_NAN}, {"relu", MC_MOD, MOD_RELU},
	{"mmio", MC_MOD, MOD_MMIO}, {"xorsign", MC_MOD, MOD_XORSIGN},
	{"abs", MC_MOD, MOD_ABS}, {"warp", MC_MOD, MOD_WARP},
	{"v2", MC_VEC, 2}, {"v4", MC_VEC, 4}, {"v8", MC_VEC, 8},
	{"ca", MC_HINT, 0}, {"cg", MC_HINT, 0}, {"cs", MC_HINT, 0}, {"lu", MC_HINT, 0},
	{"cv", MC_HINT, 0}, {"wb", MC_HINT, 0}, {"wt", MC_HINT, 0}, {"L1", MC_HINT, 0},
	{"L2", MC_HINT, 0},
	{"global", MC_SPACE, SP_GLOBAL}, {"shared", MC_SPACE, SP_SHARED},
	{"shared::cta", MC_SPACE, SP_SHARED}, {"shared::cluster", MC_SPACE, SP_SHARED_CLUSTER},
	{"local", MC_SPACE, SP_LOCAL}, {"const", MC_SPACE, SP_CONST},
	{"param", MC_SPACE, SP_PARAM}, {"param::entry", MC_SPACE, SP_PARAM},
	{"param::func", MC_SPACE, SP_PARAM},
	/* forms of supported mnemonics that are whole other instructions */
	{"async", MC_BAD, 0}, {"bulk", MC_BAD, 0},
	{"multicast::cluster", MC_BAD, 0}, {"tensor", MC_BAD, 0}, {"pack", MC_BAD, 0},
	{"satfinite", MC_BAD, 0},
};

/* modifier name -> ModDef, types included: the parser's index (Parser.mods, built by
 * pins_init) holds moddefs' index + 1, or NMODDEF + the type + 1 */
enum { NMODDEF = sizeof moddefs / sizeof *moddefs };

static uint32_t hash_mod(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h & (MODINDEX - 1);
}

static const char *mod_name(int16_t v)
{
	return v <= NMODDEF ? moddefs[v - 1].name : ptxtype_name[v - 1 - NMODDEF];
}

static void mod_insert(Parser *p, int16_t v)
{
	const char *nm = mod_name(v);
	uint32_t h = hash_mod(nm, strlen(nm));
	while (p->mods[h]) h = (h + 1) & (MODINDEX - 1);
	p->mods[h] = v;
}

void pins_init(Parser *p)
{
	op_index(&p->ops);
	for (int i = 0; i < NMODDEF; i++) mod_insert(p, (int16_t)(i + 1));
	for (int t = 1; t < NPTXTYPE; t++) mod_insert(p, (int16_t)(NMODDEF + t + 1));
}

static int mod_lookup(const Parser *p, const char *s, size_t n, ModDef *d)
{
	for (uint32_t h = hash_mod(s, n); p->mods[h]; h = (h + 1) & (MODINDEX - 1)) {
		int16_t v = p->mods[h];
		const char *nm = mod_name(v);
		if (strlen(nm) != n || memcmp(nm, s, n)) continue;
		*d = v <= NMODDEF ? moddefs[v - 1]
		                  : (ModDef){nm, MC_TYPE, (uint32_t)(v - 1 - NMODDEF)};
		return 1;
	}
	return 0;
}

/* real PTX instructions rfsim does not implement; two: named with their
 * first modifier (wgmma.mma_async); the cp.async and wmma forms rfsim lacks
 * are refused in parse_tc.c */
static const struct { const char *name; int two; } unsupported[] = {
	{"wgmma", 1}, {"tcgen05", 1},
	{"txq", 0}, {"sured", 0}, {"suq", 0},
	{"movmatrix", 0},
	{"setmaxnreg", 0}, {"stacksave", 0},
	{"stackrestore", 0}, {"alloca", 0}, {"brx", 1}, {"istypep", 0}, {"pmevent", 0},
	{"applypriority", 0}, {"discard", 0}, {"createpolicy", 0},
	{"multimem", 1}, {"tensormap", 1}, {"clusterlaunchcontrol", 1},
	{"prefetchu", 0}, {"szext", 0}, {"vadd", 0}, {"vsub", 0}, {"vabsdiff", 0},
	{"vmin", 0}, {"vmax", 0}, {"vshl", 0}, {"vshr", 0}, {"vmad", 0}, {"vset", 0},
	{"vset2", 0}, {"vset4", 0},
};

__attribute__((noreturn))
static void refuse(Parser *p, const Tok *t, const char *s, size_t n)
{
	p_error_at(p, t, "unsupported PTX instruction '%.*s' (rfsim does not implement it)",
	           (int)n, s);
}

/* length of the first k dotted segments of s */
static size_t segs(const char *s, size_t n, int k)
{
	size_t i = 0;
	for (int seen = 0; i < n; i++)
		if (s[i] == '.' && ++seen == k) break;
	return i;
}

static void unknown_op(Parser *p, const Tok *t, size_t baselen)
{
	for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++) {
		const char *nm = unsupported[i].name;
		if (strlen(nm) == baselen && !memcmp(nm, t->s, baselen))
			refuse(p, t, t->s, segs(t->s, t->len, 1 + unsupported[i].two));
	}
	p_error_at(p, t, "unknown instruction '%.*s'", (int)baselen, t->s);
}

typedef struct Mnem {        /* the mnemonic being decoded */
	Tok t;
	char hints[128];
	size_t nhints;
	int ntype;               /* types seen */
	int tc;                  /* cp.async, wmma: what ptc_modifier saw */
} Mnem;

static void set8(Parser *p, Mnem *mn, uint8_t *field, uint32_t v, const char *what)
{
	if (*field && *field != v)
		p_error_at(p, &mn->t, "conflicting %s modifiers in '%.*s'", what, (int)mn->t.len,
		           mn->t.s);
	*field = (uint8_t)v;
}

static void add_hint(Parser *p, Mnem *mn, const char *s, size_t n)
{
	if (mn->nhints + n + 2 > sizeof mn->hints) p_error_at(p, &mn->t, "too many cache hints");
	mn->hints[mn->nhints++] = '.';
	memcpy(mn->hints + mn->nhints, s, n);
	mn->nhints += n;
}

/* fence.proxy.alias|async{.global|.shared::cta|.shared::cluster} and
 * fence.mbarrier_init.release.cluster order the async and generic proxies' views
 * of memory; rfsim's memory is one, sequentially consistent view, so they are kept
 * (as hints, for the listing) and do nothing.  fence.proxy.tensormap::generic is
 * refused.  1: taken; 0: a plain fence modifier, for the shared table */
static int fence_modifier(Parser *p, Mnem *mn, const char *s, size_t n)
{
	if (!mn->nhints && !((n == 5 && !memcmp(s, "proxy", 5)) ||
	                     (n == 13 && !memcmp(s, "mbarrier_init", 13))))
		return 0;
	static const char *const ok[] = {"proxy", "mbarrier_init", "alias", "async", "global",
	                                 "shared::cta", "shared::cluster", "release", "cluster"};
	int known = 0;
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		known |= strlen(ok[i]) == n && !memcmp(ok[i], s, n);
	if (!known) refuse(p, &mn->t, mn->t.s, (size_t)(s + n - mn->t.s));
	add_hint(p, mn, s, n);
	return 1;
}

/* barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}
 * {.aligned} */
static void cluster_modifier(Parser *p, Mnem *mn, Ins *in, const char *s, size_t n)
{
	int arrive = n == 6 && !memcmp(s, "arrive", 6), wait = n == 4 && !memcmp(s, "wait", 4);
	int sem = (n == 7 && (!memcmp(s, "release", 7) || !memcmp(s, "relaxed", 7) ||
	                      !memcmp(s, "acquire", 7)));
	if (n == 7 && !memcmp(s, "aligned", 7) && in->mode) {
		in->mods |= MOD_ALIGNED;
		return;
	}
	if ((arrive || wait) && !in->mode) {
		in->mode = arrive ? MODE_ARRIVE : MODE_SYNC;
	} else if (!sem || !in->mode || (in->mods & MOD_ALIGNED) ||
	           (in->mode == MODE_SYNC) != (s[0] == 'a' && s[1] == 'c')) {
		p_error_at(p, &mn->t, "unexpected modifier '.%.*s' in '%.*s' (the forms are "
		           "barrier.cluster.arrive{.release|.relaxed}{.aligned} and "
		           "barrier.cluster.wait{.acquire}{.aligned})", (int)n, s,
		           (int)mn->t.len, mn->t.s);
	}
	add_hint(p, mn, s, n);
}

/* programmatic dependent launch (9.7.13.x griddepcontrol): rfsim starts a grid only
 * once the stream's grid before it has finished, so both forms hold already; kept as
 * hints, for the listing */
static void griddep_modifier(Parser *p, Mnem *mn, const char *s, size_t n)
{
	if (mn->nhints || !((n == 17 && !memcmp(s, "launch_dependents", n)) ||
	                    (n == 4 && !memcmp(s, "wait", n))))
		p_error_at(p, &mn->t, "unexpected modifier '.%.*s' in '%.*s' (griddepcontrol "
		           "takes one of .launch_dependents, .wait)", (int)n, s,
		           (int)mn->t.len, mn->t.s);
	add_hint(p, mn, s, n);
}

/* one dotted modifier, by the op's grammar (ops.def); the sub-grammars of a family
 * live in their own files, and BASE, with what CVT, VIDEO and FENCE add to it, in
 * base_modifier() */
static void base_modifier(Parser *p, Mnem *mn, Ins *in, const char *s, size_t n);

static void modifier(Parser *p, Mnem *mn, Ins *in, const char *s, size_t n)
{
	switch ((ModGram)op_info[in->op].gram) {
	case MG_MBAR:
		pmb_modifier(p, &mn->t, in, s, n, mn->hints, &mn->nhints, sizeof mn->hints);
		return;
	case MG_ASYNC: case MG_BULK: case MG_WMMA: case MG_MMA: case MG_MATRIX:
		ptc_modifier(p, &mn->t, in, s, n, &mn->tc, mn->hints, &mn->nhints, sizeof mn->hints);
		return;
	case MG_TEX:
		ptex_modifier(p, &mn->t, in, s, n);
		return;
	case MG_CLUSTER:
		cluster_modifier(p, mn, in, s, n);
		return;
	case MG_GRIDDEP:
		griddep_modifier(p, mn, s, n);
		return;
	case MG_FENCE:
		if (fence_modifier(p, mn, s, n)) return;
		break;
	case MG_CVT:
		if (n == 9 && !memcmp(s, "satfinite", 9)) {   /* the FP8 forms */
			in->mods |= MOD_SATFINITE;
			return;
		}
		break;
	case MG_VIDEO: case MG_BASE:
		break;
	}
	base_modifier(p, mn, in, s, n);
}

static void base_modifier(Parser *p, Mnem *mn, Ins *in, const char *s, size_t n)
{
	Op op = (Op)in->op;
	ModDef def;
	const ModDef *d = mod_lookup(p, s, n, &def) ? &def : NULL;
	int setcmp = op == OP_SETP || op == OP_SET;
	int isbar = op == OP_BAR || op == OP_BARRIER;
	if (!d) {
		if (memchr(s, ':', n)) {               /* .L2::cache_hint, .level::... */
			add_hint(p, mn, s, n);
			return;
		}
		p_error_at(p, &mn->t, "unknown modifier '.%.*s' in '%.*s'", (int)n, s,
		           (int)mn->t.len, mn->t.s);
	}
	switch (d->cls) {
	case MC_TYPE:
		if (mn->ntype == 0) in->type = (uint8_t)d->val;
		else if (mn->ntype == 1) in->type2 = (uint8_t)d->val;
		else if (mn->ntype == 2 && op_info[op].gram == MG_VIDEO &&
		         (d->val == PT_S32 || d->val == PT_U32))
			in->mods |= d->val == PT_S32 ? MOD_VB_S32 : 0;   /* .btype */
		else p_error_at(p, &mn->t, "too many types in '%.*s'", (int)mn->t.len, mn->t.s);
		mn->ntype++;
		break;
	case MC_CMP: set8(p, mn, &in->cmp, d->val, "comparison"); break;
	case MC_RND: set8(p, mn, &in->rnd, d->val, "rounding"); break;
	case MC_AOP: set8(p, mn, &in->aop, d->val, "operation"); break;
	case MC_LOGIC:
		if (setcmp) set8(p, mn, &in->bop, BOP_AND + d->val, "boolean");
		else set8(p, mn, &in->aop, d->val == 0 ? AOP_AND : d->val == 1 ? AOP_OR : AOP_XOR,
		          "operation");
		break;
	case MC_LOHI:
		if (setcmp) set8(p, mn, &in->cmp, d->val ? CMP_HI : CMP_LO, "comparison");
		else set8(p, mn, &in->mode, d->val ? MODE_HI : MODE_LO, "mode");
		break;
	case MC_MODE: set8(p, mn, &in->mode, d->val, "mode"); break;
	case MC_SCOPE:
		if (isbar && d->val == MODE_CTA) break;            /* barrier.cta.sync */
		if (isbar) refuse(p, &mn->t, mn->t.s, (size_t)(s + n - mn->t.s));
		set8(p, mn, &in->mode, d->val, "scope");
		break;
	case MC_MOD: in->mods |= d->val; break;
	case MC_VEC: set8(p, mn, &in->vec, d->val, "vector"); break;
	case MC_HINT: add_hint(p, mn, s, n); break;
	case MC_SPACE: set8(p, mn, &in->space, d->val, "state space"); break;
	case MC_SYNC:
		if (isbar) set8(p, mn, &in->mode, MODE_SYNC, "mode");
		else in->mods |= MOD_SYNC;
		break;
	case MC_UNI:
		if (op == OP_VOTE) set8(p, mn, &in->mode, MODE_UNI, "mode");
		else in->mods |= MOD_UNI;
		break;
	case MC_VOTE:
		if (op == OP_MATCH) set8(p, mn, &in->mode, d->val ? MODE_MATCH_ANY : MODE_MATCH_ALL,
		                         "mode");
		else set8(p, mn, &in->mode, d->val ? MODE_ANY : MODE_ALL, "mode");
		break;
	case MC_BAD:
		refuse(p, &mn->t, mn->t.s, (size_t)(s + n - mn->t.s));
	}
}

/* a sub-grammar's own checks of the whole instruction, operands included */
static void grammar_check(Parser *p, const Mnem *mn, Ins *in)
{
	switch ((ModGram)op_info[in->op].gram) {
	case MG_ASYNC: case MG_BULK: case MG_WMMA: case MG_MMA: case MG_MATRIX:
		ptc_check(p, &mn->t, in, mn->tc);
		return;
	case MG_TEX: ptex_check(p, &mn->t, in); return;
	case MG_MBAR: pmb_check(p, &mn->t, in); return;
	case MG_BASE: case MG_VIDEO: case MG_CVT: case MG_FENCE: case MG_CLUSTER: case MG_GRIDDEP:
		return;
	}
}

/* mnemonic := OP { '.' modifier } */
static void mnemonic(Parser *p, Mnem *mn, Ins *in)
{
	const char *s = mn->t.s, *end = s + mn->t.len;
	size_t base = segs(s, mn->t.len, 1);
	int op = ptc_op(p, &mn->t, &base);
	if (op < 0) op = pmb_op(p, &mn->t, &base);
	if (op < 0) op = op_find(&p->ops, s, base);
	if (op == OP_BARRIER && mn->t.len >= base + 8 && !memcmp(s + base, ".cluster", 8) &&
	    (mn->t.len == base + 8 || s[base + 8] == '.'))
		op = OP_CLBAR, base += 8;
	if (op < 0 || op == OP_SCOPE_BEGIN || op == OP_SCOPE_END) unknown_op(p, &mn->t, base);
	in->op = (uint16_t)op;
	for (const char *q = s + base; q < end;) {
		const char *m0 = ++q;
		while (q < end && *q != '.') q++;
		modifier(p, mn, in, m0, (size_t)(q - m0));
	}
	if (op == OP_CLBAR && !in->mode)
		p_error_at(p, &mn->t, "'%.*s' needs .arrive or .wait", (int)mn->t.len, mn->t.s);
	if (op == OP_GRIDDEP && !mn->nhints)
		p_error_at(p, &mn->t, "'%.*s' needs .launch_dependents or .wait", (int)mn->t.len,
		           mn->t.s);
	if (mn->nhints) in->hints = ir_intern(p->m, mn->hints, mn->nhints);
}

/* ---- operands ------------------------------------------------------------- */

static Operand opd(int kind, int32_t reg, int64_t imm)
{
	Operand o;
	memset(&o, 0, sizeof o);
	o.kind = (uint8_t)kind, o.reg = reg, o.imm = imm;
	return o;
}

/* %name<digits> of a range declaration; -1 if none */
static int32_t range_reg(Parser *p, const char *s, size_t n)
{
	size_t d = n;
	while (d > 1 && s[d - 1] >= '0' && s[d - 1] <= '9') d--;
	for (size_t k = d; k < n; k++) {       /* prefix s[0..k), index s[k..n) */
		if (s[k] == '0' && k + 1 < n) continue;
		if (n - k > 9) continue;
		const Bind *b = p_lookup(p, s, k);
		if (!b || b->kind != B_RANGE) continue;
		int32_t idx = 0;
		for (size_t i = k; i < n; i++) idx = idx * 10 + (s[i] - '0');
		const RegDecl *r = &p->rdecl[b->val];
		if (idx < r->count) return r->base + idx;
	}
	return -1;
}

static int sreg_operand(const Tok *t, Operand *o)
{
	size_t n = segs(t->s, t->len, 1);
	if (t->s[0] != '%' || n < 2) return 0;
	const char *nm = t->s + 1;
	size_t nl = n - 1;
	int idx = -1;
	for (int r = 0; r < NSREG; r++) {
		size_t l = strlen(sreg_name[r]);
		if (l > nl || memcmp(sreg_name[r], nm, l)) continue;
		if (l == nl) idx = r;
		else if ((r == SR_ENVREG || r == SR_PM) && nl - l <= 2) idx = r;
		if (idx >= 0) break;
	}
	if (idx < 0) return 0;
	*o = opd(OPK_SREG, idx, 0);
	if (idx == SR_ENVREG || idx == SR_PM) {
		size_t l = strlen(sreg_name[idx]);
		int v = 0;
		for (size_t i = l; i < nl; i++) {
			if (nm[i] < '0' || nm[i] > '9') return 0;
			v = v * 10 + nm[i] - '0';
		}
		if (l == nl || v > (idx == SR_ENVREG ? 31 : 7)) return 0;
		o->comp = (uint8_t)v;
	}
	if (n < t->len) {
		const char *c = t->s + n + 1;
		if (t->len - n != 2 || (*c != 'x' && *c != 'y' && *c != 'z')) return 0;
		o->comp = (uint8_t)(*c - 'x' + 1);
	}
	return 1;
}

/* a name used as an operand: register, symbol, special register or '_' */
static Operand name_operand(Parser *p, const Tok *t)
{
	const Bind *b = p_lookup(p, t->s, t->len);
	if (b && b->kind == B_REG) return opd(OPK_REG, b->val, 0);
	if (b && b->kind == B_SYM) return opd(OPK_SYM, b->val, 0);
	int32_t r = range_reg(p, t->s, t->len);
	if (r >= 0) return opd(OPK_REG, r, 0);
	Operand o;
	if (sreg_operand(t, &o)) return o;
	if (t->len == 1 && t->s[0] == '_') return opd(OPK_SINK, 0, 0);
	if (t->s[0] == '%') p_error_at(p, t, "undefined register '%.*s'", (int)t->len, t->s);
	p_error_at(p, t, "undefined symbol '%.*s'", (int)t->len, t->s);
}

/* imm := ['-'] (INT | FLT) */
static Operand imm_operand(Parser *p, const Ins *in)
{
	int neg = p_accept(p, '-');
	Tok t = p->lx.tok;
	if (t.kind != TK_INT && t.kind != TK_FLT) p_error(p, "expected an operand");
	p_next(p);
	if (t.kind == TK_INT) {
		Operand o = opd(OPK_IMM, 0, (int64_t)(neg ? (uint64_t)0 - t.val : t.val));
		if (t.hex) o.flags |= OPDF_HEXLIT;
		return o;
	}
	Operand o = opd(OPK_IMM, 0, (int64_t)t.val);
	int f32 = in->type == PT_F32 && in->op != OP_CVT &&
	          (in->type2 == PT_NONE || in->type2 == PT_F32);
	if (t.decimal && f32) {
		float f = (float)t.dval;
		uint32_t u;
		memcpy(&u, &f, 4);
		o.imm = u;
		o.flags = OPDF_F32LIT;
	} else {
		o.flags = t.fbits == 32 ? OPDF_F32LIT : OPDF_F64LIT;
	}
	if (neg) o.imm ^= (int64_t)((o.flags & OPDF_F32LIT) ? 0x80000000u : 1ull << 63);
	return o;
}

/* off := { ('+' | '-') ['-'] INT } */
static int64_t offset_sum(Parser *p)
{
	uint64_t sum = 0;                            /* modulo 2^64, like address math */
	while (p->lx.tok.kind == '+' || p->lx.tok.kind == '-') {
		int neg = p->lx.tok.kind == '-';
		p_next(p);
		uint64_t v = (uint64_t)p_int(p, "an offset");
		sum += neg ? (uint64_t)0 - v : v;
	}
	return (int64_t)sum;
}

/* addr := '[' (NAME | INT) off ']' */
static Operand addr_operand(Parser *p)
{
	p_next(p);
	Tok t = p->lx.tok;
	Operand o;
	if (t.kind == TK_IDENT) {
		p_next(p);
		Operand b = name_operand(p, &t);
		if (b.kind == OPK_REG) o = opd(OPK_ADDR, b.reg, 0);
		else if (b.kind == OPK_SYM) o = opd(OPK_ADDR, b.reg, 0), o.flags = OPDF_SYMBASE;
		else p_error_at(p, &t, "bad address base '%.*s'", (int)t.len, t.s);
	} else {
		o = opd(OPK_ADDR, -1, p_int(p, "an address"));
	}
	o.imm = (int64_t)((uint64_t)o.imm + (uint64_t)offset_sum(p));
	p_expect(p, ']', "']'");
	return o;
}

static Operand operand(Parser *p, const Ins *in, int depth);

/* vec := '{' operand { ',' operand } '}' */
static Operand vec_operand(Parser *p, const Ins *in, int depth)
{
	Tok open = p->lx.tok;
	if (depth) p_error(p, "nested vector operand");
	p_next(p);
	size_t first = p->nvop;
	if (p->lx.tok.kind != '}') {
		do {
			Operand e = operand(p, in, depth + 1);
			VEC_RESERVE(p->vops, p->capvop, p->nvop + 1);
			p->vops[p->nvop++] = e;
		} while (p_accept(p, ','));
	}
	p_expect(p, '}', "'}' after the vector elements");
	if (p->nvop - first > 255) p_error_at(p, &open, "vector operand too long");
	Operand o = opd(OPK_VEC, (int32_t)first, 0);
	o.n = (uint8_t)(p->nvop - first);
	return o;
}

/* '!' NAME | '!' INT: a negated predicate register, or constant (ptxas takes `!1') */
static Operand negated(Parser *p, const Ins *in)
{
	Tok t = p->lx.tok;
	p_next(p);
	Tok r = p->lx.tok;
	Operand o = opd(OPK_NONE, 0, 0);
	if (r.kind == TK_INT) {
		o = imm_operand(p, in);
	} else if (r.kind == TK_IDENT) {
		p_next(p);
		o = name_operand(p, &r);
		if (o.kind != OPK_REG || p->regtype[o.reg] != PT_PRED) o.kind = OPK_NONE;
	}
	if (o.kind == OPK_NONE)
		p_error_at(p, &t, "'!' must precede a predicate register or an integer");
	o.flags |= OPDF_NEG;
	return o;
}

/* operand := '!' (NAME | INT) | imm | addr | vec | NAME [off] */
static Operand operand(Parser *p, const Ins *in, int depth)
{
	Tok t = p->lx.tok;
	if (t.kind == '!') return negated(p, in);
	if (t.kind == '[') return addr_operand(p);
	if (t.kind == '{') return vec_operand(p, in, depth);
	if (t.kind != TK_IDENT) return imm_operand(p, in);
	p_next(p);
	if (in->op == OP_BRA) return opd(OPK_LABEL, p_label_ref(p, &t), 0);
	Operand o = name_operand(p, &t);
	if (o.kind == OPK_SYM) o.imm = offset_sum(p);
	return o;
}

/* ---- calls ---------------------------------------------------------------- */

/* args := '(' [ operand { ',' operand } ] ')' */
static Operand arg_list(Parser *p, const Ins *in)
{
	Tok open = p->lx.tok;
	p_next(p);
	size_t first = p->nvop;
	if (p->lx.tok.kind != ')') {
		do {
			Operand e = operand(p, in, 1);
			if (e.kind == OPK_VEC || e.kind == OPK_ADDR || e.kind == OPK_SINK)
				p_error_at(p, &open, "bad call argument");
			VEC_RESERVE(p->vops, p->capvop, p->nvop + 1);
			p->vops[p->nvop++] = e;
		} while (p_accept(p, ','));
	}
	p_expect(p, ')', "')' after the call arguments");
	if (p->nvop - first > 255) p_error_at(p, &open, "too many call arguments");
	Operand o = opd(OPK_VEC, (int32_t)first, 0);
	o.n = (uint8_t)(p->nvop - first);
	return o;
}

/* call := call[.uni] [ args ',' ] callee [ ',' args ] [ ',' NAME ] ';' */
static void call(Parser *p, Ins *in, const Tok *at)
{
	Module *m = p->m;
	Operand rets = {0}, o[3];
	int ns = 0;
	if (p->lx.tok.kind == '(') {
		rets = arg_list(p, in);
		in->nd = 1;
		p_expect(p, ',', "','");
	}
	Tok ct = p->lx.tok;
	p_expect(p, TK_IDENT, "the called function");
	o[ns++] = name_operand(p, &ct);
	int indirect = o[0].kind == OPK_REG;
	if (!indirect && (o[0].kind != OPK_SYM || m->syms[o[0].reg].kind != SYM_FUNC))
		p_error_at(p, &ct, "'%.*s' is not a function", (int)ct.len, ct.s);
	o[ns++] = (p_accept(p, ',') && p->lx.tok.kind == '(') ? arg_list(p, in)
	                                                      : opd(OPK_VEC, (int32_t)p->nvop, 0);
	if (p->lx.tok.kind == ',' || (o[1].n == 0 && p->lx.tok.kind == TK_IDENT)) {
		p_accept(p, ',');
		Tok pt = p->lx.tok;
		p_expect(p, TK_IDENT, "a .callprototype name");
		o[ns] = name_operand(p, &pt);
		if (o[ns].kind != OPK_SYM || m->syms[o[ns].reg].kind != SYM_PROTO)
			p_error_at(p, &pt, "'%.*s' is not a .callprototype", (int)pt.len, pt.s);
		ns++;
	}
	if (indirect && ns < 3) p_error_at(p, at, "an indirect call needs a .callprototype");
	if (!indirect && ns == 3) p_error_at(p, at, "a direct call takes no .callprototype");
	const Sym *callee = &m->syms[o[indirect ? 2 : 0].reg];
	const Func *f = &m->funcs[callee->func];
	if (f->nparam != o[1].n || f->nret != (in->nd ? rets.n : 0))
		p_error_at(p, at, "call passes %d argument(s) and %d result(s); '%s' takes %d and %d",
		           o[1].n, in->nd ? rets.n : 0, ir_str(m, callee->name), f->nparam, f->nret);
	if (in->nd) in->o[0] = rets;
	for (int k = 0; k < ns; k++) in->o[in->nd + k] = o[k];
	in->ns = (uint8_t)ns;
}

/* ---- the instruction --------------------------------------------------------- */

/* tex/suld/sust's '[' handle ',' vec ']': two operands into o[*n..] */
static void tex_addr(Parser *p, const Ins *in, const Tok *at, Operand *o, int *n)
{
	p_next(p);
	Tok t = p->lx.tok;
	if (t.kind != TK_IDENT) p_error(p, "expected a texture or surface object register");
	p_next(p);
	if (*n + 2 > INS_MAXOPD) p_error_at(p, at, "too many operands");
	o[(*n)++] = name_operand(p, &t);
	if (!p_accept(p, ','))
		p_error(p, "expected ', {coordinates}' after the texture or surface");
	if (p->lx.tok.kind != '{') p_error(p, "expected '{' (a sampler operand is not supported: "
	                                   "rfsim implements texture objects only)");
	o[(*n)++] = vec_operand(p, in, 0);
	p_expect(p, ']', "']' (texel offsets and depth compare are not supported)");
}

/* operands := [ operand ['|' operand] { ',' operand } ]: into in->o, counted against
 * the form; opat[k] = where operand k starts */
static void operands(Parser *p, Ins *in, const Tok *at, Tok *opat)
{
	Operand o[INS_MAXOPD];
	int n = 0, pipe = 0;
	if (p->lx.tok.kind != ';') {
		do {
			if (n == INS_MAXOPD) p_error_at(p, at, "too many operands");
			opat[n] = p->lx.tok;
			if (op_info[in->op].gram == MG_TEX && p->lx.tok.kind == '[') {
				if (n + 1 < INS_MAXOPD) opat[n + 1] = p->lx.tok;    /* its two operands */
				tex_addr(p, in, at, o, &n);
				continue;
			}
			o[n++] = operand(p, in, 0);
			if (p->lx.tok.kind == '|') {
				if (n != 1 || n == INS_MAXOPD) p_error(p, "unexpected '|'");
				p_next(p);
				opat[n] = p->lx.tok;
				o[n] = operand(p, in, 0);
				o[n++].flags |= OPDF_PIPE;
				pipe = 1;
			}
		} while (p_accept(p, ','));
	}
	if (p->lx.tok.kind != ';') {
		char b[64];
		snprintf(b, sizeof b, "%.*s", p->lx.tok.len > 40 ? 40 : (int)p->lx.tok.len,
		         p->lx.tok.s);
		p_error(p, "expected ';' after the instruction, found '%s'", b);
	}
	FormShape sh = form_shape(ins_form(in));
	if (pipe && !sh.pipe)
		p_error_at(p, &opat[1], "unexpected '|': '%.*s' has one destination", (int)at->len,
		           at->s);
	in->nd = (uint8_t)(sh.nd + pipe);
	if (n < in->nd) p_error_at(p, at, "missing operands");
	in->ns = (uint8_t)(n - in->nd);
	if (in->ns < sh.lo || in->ns > sh.hi) {
		char range[32];
		if (sh.lo == sh.hi) snprintf(range, sizeof range, "%d", sh.lo);
		else snprintf(range, sizeof range, "%d to %d", sh.lo, sh.hi);
		int mask = (in->op == OP_VOTE || in->op == OP_SHFL) && (in->mods & MOD_SYNC) &&
		           in->ns + 1 == sh.lo;
		p_error_at(p, at, "'%.*s' takes %s source operand%s, found %d%s", (int)at->len, at->s,
		           range, sh.hi == 1 ? "" : "s", in->ns,
		           mask ? " (the membermask is missing)" : "");
	}
	memcpy(in->o, o, (size_t)n * sizeof *o);
}

/* instruction := [ '@' ['!'] REG ] mnemonic [ operand { ',' operand } ] ';' */
void p_instruction(Parser *p)
{
	Tok start = p->lx.tok;
	int32_t guard = -1;
	int gneg = 0;
	if (p_accept(p, '@')) {
		gneg = p_accept(p, '!');
		Tok g = p->lx.tok;
		p_expect(p, TK_IDENT, "a predicate register");
		Operand o = name_operand(p, &g);
		if (o.kind != OPK_REG || p->regtype[o.reg] != PT_PRED)
			p_error_at(p, &g, "guard '%.*s' is not a .pred register", (int)g.len, g.s);
		guard = o.reg;
	}
	Mnem mn;
	memset(&mn, 0, sizeof mn);
	mn.t = p->lx.tok;
	if (mn.t.kind != TK_IDENT) p_error(p, "expected an instruction");
	Ins *in = p_emit(p, &start);             /* p->ins does not move until the next one */
	mnemonic(p, &mn, in);
	in->guard = guard, in->guard_neg = (uint8_t)gneg;
	p_next(p);
	if (in->op == OP_CALL) {
		call(p, in, &mn.t);
	} else {
		Tok opat[INS_MAXOPD];
		operands(p, in, &mn.t, opat);
		pchk_operands(p, &mn.t, in, opat);
		grammar_check(p, &mn, in);
	}
	p_expect(p, ';', "';' after the instruction");
}
