/*
 * parse_mbar.c -- mbarrier objects (PTX ISA 9.7.13.15) and
 * cp.async.mbarrier.arrive (9.7.9.25.3.4), as libcu++'s cuda::barrier,
 * cuda::pipeline and cuda::memcpy_async emit them for sm_80 and sm_90:
 *
 *   mbarrier.init{.shared{::cta}}.b64            [a], count;
 *   mbarrier.inval{.shared{::cta}}.b64           [a];
 *   mbarrier.arrive{.sem}{.scope}{.shared{::cta}}.b64       state, [a]{, count};
 *   mbarrier.arrive.expect_tx{.sem}{.scope}{.shared{::cta}}.b64 state, [a], tx;
 *   mbarrier.arrive.noComplete{.shared{::cta}}.b64           state, [a], count;
 *   mbarrier.arrive_drop ... (the same three forms)
 *   mbarrier.expect_tx|complete_tx{.sem}{.scope}{.shared{::cta}}.b64 [a], tx;
 *   mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state|parity;
 *   mbarrier.try_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state|parity
 *                                                                  {, suspendTimeHint};
 *   mbarrier.pending_count.b64                   count, state;
 *   cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a];
 *
 * state is a .b64 register (or `_` as a destination), count, tx, parity and
 * the hint .u32 registers or integers.  .sem (.release, .acquire, .relaxed)
 * and .scope (.cta, .cluster) are kept as hints: rfsim's memory is
 * sequentially consistent.  An object named by a .shared::cluster address
 * (another CTA of the thread-block cluster, or this one) takes arrivals
 * with a '_' state, arrive_drop, expect_tx and complete_tx; waits on it are
 * refused by name, as the ISA has no such form.
 */
#include <string.h>

#include "ptx/parse.h"

static int eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

static const struct { const char *w; int op; } subops[] = {
	{"init", OP_MBAR_INIT}, {"inval", OP_MBAR_INVAL}, {"arrive", OP_MBAR_ARRIVE},
	{"arrive_drop", OP_MBAR_DROP}, {"expect_tx", OP_MBAR_EXPECT_TX},
	{"complete_tx", OP_MBAR_COMPLETE_TX}, {"test_wait", OP_MBAR_TEST},
	{"try_wait", OP_MBAR_TRY}, {"pending_count", OP_MBAR_PENDING},
};

int pmb_op(Parser *p, const Tok *t, size_t *used)
{
	const char *s = t->s, *e = t->s + t->len;
	if (t->len < 9 || memcmp(s, "mbarrier.", 9)) return -1;
	const char *s1 = s + 9, *q = s1;
	while (q < e && *q != '.') q++;
	for (size_t i = 0; i < sizeof subops / sizeof *subops; i++)
		if (eq(s1, (size_t)(q - s1), subops[i].w)) {
			*used = (size_t)(q - s);
			return subops[i].op;
		}
	p_error_at(p, t, "unsupported PTX instruction '%.*s' (rfsim does not implement it)",
	           (int)(q - s), s);
}

__attribute__((noreturn))
static void bad_mod(Parser *p, const Tok *t, const char *s, size_t n)
{
	p_error_at(p, t, "unexpected modifier '.%.*s' in '%.*s'", (int)n, s, (int)t->len, t->s);
}

static void flag(Parser *p, const Tok *t, Ins *in, int ok, int f, const char *s, size_t n)
{
	if (!ok || (in->frag & f)) bad_mod(p, t, s, n);
	in->frag |= (uint8_t)f;
}

void pmb_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n, char *hints,
                  size_t *nhints, size_t cap)
{
	int op = in->op, arrive = op == OP_MBAR_ARRIVE || op == OP_MBAR_DROP;
	int wait = op == OP_MBAR_TEST || op == OP_MBAR_TRY;
	if (eq(s, n, "parity")) flag(p, t, in, wait, MBF_PARITY, s, n);
	else if (eq(s, n, "expect_tx")) flag(p, t, in, arrive, MBF_EXPECT_TX, s, n);
	else if (eq(s, n, "noComplete")) flag(p, t, in, arrive, MBF_NOCOMPLETE, s, n);
	else if (eq(s, n, "noinc")) flag(p, t, in, op == OP_CP_MBAR, MBF_NOINC, s, n);
	else if (eq(s, n, "shared") || eq(s, n, "shared::cta")) {
		if (in->space || op == OP_MBAR_PENDING) bad_mod(p, t, s, n);
		in->space = SP_SHARED;
	} else if (eq(s, n, "shared::cluster")) {
		/* an object in another CTA of the cluster (or this one): arrivals and tx
		   updates only, as the ISA has them */
		if (in->space || !(arrive || op == OP_MBAR_EXPECT_TX || op == OP_MBAR_COMPLETE_TX))
			p_error_at(p, t, "unsupported PTX instruction form '%.*s' (rfsim knows "
			           "'.shared::cluster' mbarrier objects in arrive, arrive_drop, "
			           "expect_tx and complete_tx)", (int)t->len, t->s);
		in->space = SP_SHARED_CLUSTER;
	} else if (eq(s, n, "b64")) {
		if (in->type) bad_mod(p, t, s, n);
		in->type = PT_B64;
	} else if (eq(s, n, "release") || eq(s, n, "acquire") || eq(s, n, "relaxed") ||
	           eq(s, n, "cta") || eq(s, n, "cluster")) {
		if (op == OP_CP_MBAR || op == OP_MBAR_INIT || op == OP_MBAR_INVAL ||
		    op == OP_MBAR_PENDING || *nhints + n + 2 > cap)
			bad_mod(p, t, s, n);
		hints[(*nhints)++] = '.';
		memcpy(hints + *nhints, s, n);
		*nhints += n;
	} else {
		bad_mod(p, t, s, n);
	}
}

static void need(Parser *p, const Tok *t, int ok, const char *what)
{
	if (!ok) p_error_at(p, t, "'%.*s': %s", (int)t->len, t->s, what);
}

/* o is a register of `bytes` bytes (not a predicate), or with imm_ok an integer */
static int is_val(const Parser *p, const Operand *o, int bytes, int imm_ok)
{
	if (o->kind == OPK_IMM) return imm_ok;
	return o->kind == OPK_REG && p->regtype[o->reg] != PT_PRED &&
	       ptxtype_size((PtxType)p->regtype[o->reg]) == bytes;
}

void pmb_check(Parser *p, const Tok *t, const Ins *in)
{
	int op = in->op;
	need(p, t, in->type == PT_B64, "needs type .b64");
	if (op == OP_MBAR_PENDING) {
		need(p, t, is_val(p, &in->o[0], 4, 0) && is_val(p, &in->o[1], 8, 0),
		     "takes a 32-bit count register and a 64-bit state register");
		return;
	}
	int a = op == OP_MBAR_ARRIVE || op == OP_MBAR_DROP || op == OP_MBAR_TEST ||
	        op == OP_MBAR_TRY;                        /* the address after a destination */
	const Operand *rest = &in->o[a + 1];
	int nrest = in->nd + in->ns - a - 1;
	switch (op) {
	case OP_MBAR_INIT: case OP_MBAR_EXPECT_TX: case OP_MBAR_COMPLETE_TX:
		need(p, t, is_val(p, rest, 4, 1), "the count is a 32-bit register or an integer");
		break;
	case OP_MBAR_ARRIVE: case OP_MBAR_DROP:
		need(p, t, in->o[0].kind == OPK_SINK || is_val(p, &in->o[0], 8, 0),
		     "the state is a 64-bit register or '_'");
		need(p, t, in->space != SP_SHARED_CLUSTER || in->o[0].kind == OPK_SINK,
		     "the state of an arrival on a .shared::cluster object is '_'");
		need(p, t, nrest == 1 || !(in->frag & (MBF_EXPECT_TX | MBF_NOCOMPLETE)),
		     ".expect_tx and .noComplete take a count");
		need(p, t, !nrest || is_val(p, rest, 4, 1),
		     "the count is a 32-bit register or an integer");
		need(p, t, (in->frag & (MBF_EXPECT_TX | MBF_NOCOMPLETE)) !=
		     (MBF_EXPECT_TX | MBF_NOCOMPLETE), ".expect_tx with .noComplete");
		break;
	case OP_MBAR_TEST: case OP_MBAR_TRY:
		need(p, t, in->o[0].kind == OPK_REG && p->regtype[in->o[0].reg] == PT_PRED,
		     "the result is a predicate");
		need(p, t, in->frag & MBF_PARITY ? is_val(p, rest, 4, 1) : is_val(p, rest, 8, 0),
		     in->frag & MBF_PARITY ? "the phase parity is a 32-bit register or an integer"
		                           : "the state is a 64-bit register");
		need(p, t, nrest == 1 || (op == OP_MBAR_TRY && is_val(p, rest + 1, 4, 1)),
		     "the suspend-time hint is a 32-bit register or an integer");
		break;
	default:
		break;
	}
}
