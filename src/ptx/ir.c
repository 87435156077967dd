/*
 * ir.c -- the tables and the small services of the PTX IR (ir.h).
 *
 * The opcode table is ops.def expanded once; the modifier name tables are
 * written with designated initializers so that a reordered enum cannot
 * silently shift a name, and test_parse.c checks that no entry is missing.
 *
 * Strings.  A module interns every name it holds: ids are dense (0 is the
 * empty string), the bytes live NUL-terminated in Module.strbuf, and
 * struct StrTab keeps each id's offset plus an open-addressing hash of
 * the ids (FNV-1a, linear probing, load <= 1/2).  Dense ids let the parser
 * index per-name arrays directly (its scope table), which is why ids are
 * not byte offsets.
 *
 * ir_equal (ir_equal.c) is the printer's contract.
 */
#include "ptx/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

const OpInfo op_info[NOP_] = {
#define X(e, name, form, unit, kind, gram, flags) \
	{name, form, UNIT_##unit, KIND_##kind, MG_##gram, flags},
#include "ptx/ops.def"
#undef X
};

/* mnemonic -> Op: open addressing over FNV-1a, built by whoever looks names up (the
 * parser, once per module) so that no table is shared state */
static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

void op_index(OpIndex *x)
{
	memset(x, 0, sizeof *x);
	for (int op = 0; op < NOP_; op++) {
		const char *nm = op_info[op].name;
		uint32_t h = hash_bytes(nm, strlen(nm)) & (OPINDEX - 1);
		while (x->slot[h]) h = (h + 1) & (OPINDEX - 1);
		x->slot[h] = (int16_t)(op + 1);
	}
}

int op_find(const OpIndex *x, const char *mnemonic, size_t len)
{
	for (uint32_t h = hash_bytes(mnemonic, len) & (OPINDEX - 1); x->slot[h];
	     h = (h + 1) & (OPINDEX - 1)) {
		const char *nm = op_info[x->slot[h] - 1].name;
		if (strlen(nm) == len && !memcmp(nm, mnemonic, len)) return x->slot[h] - 1;
	}
	return -1;
}

int op_lookup(const char *mnemonic, size_t len)
{
	OpIndex x;
	op_index(&x);
	return op_find(&x, mnemonic, len);
}

/* ---- types and modifier names ------------------------------------------- */

const char *const ptxtype_name[NPTXTYPE] = {
	[PT_NONE] = "", [PT_B8] = "b8", [PT_B16] = "b16", [PT_B32] = "b32", [PT_B64] = "b64",
	[PT_B128] = "b128", [PT_U8] = "u8", [PT_U16] = "u16", [PT_U32] = "u32",
	[PT_U64] = "u64", [PT_S8] = "s8", [PT_S16] = "s16", [PT_S32] = "s32",
	[PT_S64] = "s64", [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16",
	[PT_BF16X2] = "bf16x2", [PT_TF32] = "tf32", [PT_F32] = "f32", [PT_F64] = "f64",
	[PT_U16X2] = "u16x2", [PT_S16X2] = "s16x2", [PT_E4M3X2] = "e4m3x2",
	[PT_E5M2X2] = "e5m2x2", [PT_PRED] = "pred",
};

int ptxtype_size(PtxType t)
{
	switch (t) {
	case PT_B8: case PT_U8: case PT_S8: return 1;
	case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: case PT_E4M3X2:
	case PT_E5M2X2: return 2;
	case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2: case PT_BF16X2:
	case PT_U16X2: case PT_S16X2:
	case PT_TF32: return 4;
	case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 8;
	case PT_B128: return 16;
	case PT_NONE: case PT_PRED: case NPTXTYPE: return 0;
	}
	return 0;
}

int ptxtype_is_signed(PtxType t)
{
	return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}

int ptxtype_is_float(PtxType t)
{
	return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2 ||
	       t == PT_TF32 || t == PT_F32 || t == PT_F64;
}

PtxType ptxtype_lookup(const char *s, size_t len)
{
	for (int t = 1; t < NPTXTYPE; t++)
		if (strlen(ptxtype_name[t]) == len && !memcmp(ptxtype_name[t], s, len))
			return (PtxType)t;
	return PT_NONE;
}

const char *const space_name[NSPACE] = {
	[SP_NONE] = "", [SP_REG] = "reg", [SP_SREG] = "sreg", [SP_CONST] = "const",
	[SP_GLOBAL] = "global", [SP_LOCAL] = "local", [SP_PARAM] = "param",
	[SP_SHARED] = "shared", [SP_SHARED_CLUSTER] = "shared::cluster", [SP_TEX] = "tex",
};

const char *const cmp_name[NCMP] = {
	[CMP_NONE] = "", [CMP_EQ] = "eq", [CMP_NE] = "ne", [CMP_LT] = "lt", [CMP_LE] = "le",
	[CMP_GT] = "gt", [CMP_GE] = "ge", [CMP_LO] = "lo", [CMP_LS] = "ls", [CMP_HI] = "hi",
	[CMP_HS] = "hs", [CMP_EQU] = "equ", [CMP_NEU] = "neu", [CMP_LTU] = "ltu",
	[CMP_LEU] = "leu", [CMP_GTU] = "gtu", [CMP_GEU] = "geu", [CMP_NUM] = "num",
	[CMP_NAN] = "nan",
};

const char *const rnd_name[NRND] = {
	[RND_NONE] = "", [RND_RN] = "rn", [RND_RZ] = "rz", [RND_RM] = "rm", [RND_RP] = "rp",
	[RND_RNI] = "rni", [RND_RZI] = "rzi", [RND_RMI] = "rmi", [RND_RPI] = "rpi",
	[RND_RNA] = "rna", [RND_RS] = "rs",
};

const char *const atomop_name[NATOMOP] = {
	[AOP_NONE] = "", [AOP_AND] = "and", [AOP_OR] = "or", [AOP_XOR] = "xor",
	[AOP_CAS] = "cas", [AOP_EXCH] = "exch", [AOP_ADD] = "add", [AOP_INC] = "inc",
	[AOP_DEC] = "dec", [AOP_MIN] = "min", [AOP_MAX] = "max", [AOP_POPC] = "popc",
};

const char *const texgeom_name[NTEXGEOM] = {
	[TEXG_NONE] = "", [TEXG_1D] = "1d", [TEXG_2D] = "2d", [TEXG_3D] = "3d",
	[TEXG_A1D] = "a1d", [TEXG_A2D] = "a2d",
};

const char *const mode_name[NMODE] = {
	[MODE_NONE] = "", [MODE_LO] = "lo", [MODE_HI] = "hi", [MODE_WIDE] = "wide",
	[MODE_UP] = "up", [MODE_DOWN] = "down", [MODE_BFLY] = "bfly", [MODE_IDX] = "idx",
	[MODE_ALL] = "all", [MODE_ANY] = "any", [MODE_UNI] = "uni", [MODE_BALLOT] = "ballot",
	[MODE_SYNC] = "sync", [MODE_ARRIVE] = "arrive", [MODE_RED] = "red",
	[MODE_CTA] = "cta", [MODE_GL] = "gl", [MODE_GPU] = "gpu", [MODE_SYS] = "sys",
	[MODE_CLUSTER] = "cluster", [MODE_FINITE] = "finite", [MODE_INFINITE] = "infinite",
	[MODE_NUMBER] = "number", [MODE_NOTANUMBER] = "notanumber", [MODE_NORMAL] = "normal",
	[MODE_SUBNORMAL] = "subnormal", [MODE_F4E] = "f4e", [MODE_B4E] = "b4e",
	[MODE_RC8] = "rc8", [MODE_ECL] = "ecl", [MODE_ECR] = "ecr", [MODE_RC16] = "rc16",
	[MODE_L] = "l", [MODE_R] = "r", [MODE_MATCH_ANY] = "any", [MODE_MATCH_ALL] = "all",
	[MODE_SU_TRAP] = "trap", [MODE_SU_CLAMP] = "clamp", [MODE_SU_ZERO] = "zero",
	[MODE_TLD4_R] = "r", [MODE_TLD4_G] = "g", [MODE_TLD4_B] = "b", [MODE_TLD4_A] = "a",
};

const char *const sreg_name[NSREG] = {
	[SR_TID] = "tid", [SR_NTID] = "ntid", [SR_CTAID] = "ctaid", [SR_NCTAID] = "nctaid",
	[SR_LANEID] = "laneid", [SR_WARPID] = "warpid", [SR_NWARPID] = "nwarpid",
	[SR_SMID] = "smid", [SR_NSMID] = "nsmid", [SR_GRIDID] = "gridid",
	[SR_LANEMASK_EQ] = "lanemask_eq", [SR_LANEMASK_LE] = "lanemask_le",
	[SR_LANEMASK_LT] = "lanemask_lt", [SR_LANEMASK_GE] = "lanemask_ge",
	[SR_LANEMASK_GT] = "lanemask_gt", [SR_CLOCK] = "clock", [SR_CLOCK_HI] = "clock_hi",
	[SR_CLOCK64] = "clock64", [SR_GLOBALTIMER] = "globaltimer",
	[SR_GLOBALTIMER_LO] = "globaltimer_lo", [SR_GLOBALTIMER_HI] = "globaltimer_hi",
	[SR_DYNAMIC_SMEM_SIZE] = "dynamic_smem_size", [SR_TOTAL_SMEM_SIZE] = "total_smem_size",
	[SR_AGGR_SMEM_SIZE] = "aggr_smem_size",
	[SR_RSMEM_BEGIN] = "reserved_smem_offset_begin", [SR_RSMEM_END] = "reserved_smem_offset_end",
	[SR_RSMEM_CAP] = "reserved_smem_offset_cap", [SR_RSMEM_0] = "reserved_smem_offset_0",
	[SR_RSMEM_1] = "reserved_smem_offset_1",
	[SR_CLUSTERID] = "clusterid", [SR_NCLUSTERID] = "nclusterid",
	[SR_CLUSTER_CTAID] = "cluster_ctaid", [SR_CLUSTER_NCTAID] = "cluster_nctaid",
	[SR_CLUSTER_CTARANK] = "cluster_ctarank", [SR_CLUSTER_NCTARANK] = "cluster_nctarank",
	[SR_IS_EXPLICIT_CLUSTER] = "is_explicit_cluster", [SR_ENVREG] = "envreg",
	[SR_PM] = "pm",
};

/* ---- module and strings ------------------------------------------------- */

struct StrTab {
	uint32_t *off;           /* id -> offset in Module.strbuf */
	uint32_t n, cap;         /* ids in use */
	uint32_t *slot;          /* hash slots: id + 1, 0 = empty */
	uint32_t nslot;          /* power of two */
};

Module *ir_new(const char *filename)
{
	Module *m = xcalloc(1, sizeof *m);
	m->filename = xstrdup(filename ? filename : "<ptx>");
	m->arena = arena_new();
	m->strtab = xcalloc(1, sizeof *m->strtab);
	m->strcap = 4096;
	m->strbuf = xmalloc(m->strcap);
	m->strbuf[0] = 0;
	m->strlen_ = 1;
	struct StrTab *t = m->strtab;
	t->cap = 256;
	t->off = xmalloc(t->cap * sizeof *t->off);
	t->off[0] = 0;
	t->n = 1;
	t->nslot = 512;
	t->slot = xcalloc(t->nslot, sizeof *t->slot);
	return m;
}

void ir_free(Module *m)
{
	if (!m) return;
	if (m->strtab) {
		free(m->strtab->off);
		free(m->strtab->slot);
		free(m->strtab);
	}
	free(m->strbuf);
	free(m->filename);
	arena_free(m->arena);
	free(m);
}

static int str_is(const Module *m, uint32_t id, const char *s, size_t len)
{
	const char *p = m->strbuf + m->strtab->off[id];
	return !memcmp(p, s, len) && p[len] == 0;
}

int32_t ir_str_find(const Module *m, const char *s, size_t len)
{
	const struct StrTab *t = m->strtab;
	if (!len) return 0;
	for (uint32_t h = hash_bytes(s, len) & (t->nslot - 1); t->slot[h];
	     h = (h + 1) & (t->nslot - 1))
		if (str_is(m, t->slot[h] - 1, s, len)) return (int32_t)(t->slot[h] - 1);
	return -1;
}

static void strtab_rehash(Module *m)
{
	struct StrTab *t = m->strtab;
	free(t->slot);
	t->nslot *= 2;
	t->slot = xcalloc(t->nslot, sizeof *t->slot);
	for (uint32_t id = 1; id < t->n; id++) {
		const char *p = m->strbuf + t->off[id];
		uint32_t h = hash_bytes(p, strlen(p)) & (t->nslot - 1);
		while (t->slot[h]) h = (h + 1) & (t->nslot - 1);
		t->slot[h] = id + 1;
	}
}

uint32_t ir_intern(Module *m, const char *s, size_t len)
{
	int32_t found = ir_str_find(m, s, len);
	if (found >= 0) return (uint32_t)found;
	struct StrTab *t = m->strtab;
	VEC_RESERVE(m->strbuf, m->strcap, m->strlen_ + len + 1);
	VEC_RESERVE(t->off, t->cap, t->n + 1);
	uint32_t id = t->n++;
	t->off[id] = (uint32_t)m->strlen_;
	memcpy(m->strbuf + m->strlen_, s, len);
	m->strbuf[m->strlen_ + len] = 0;
	m->strlen_ += len + 1;
	if (t->n * 2 > t->nslot) {
		strtab_rehash(m);
	} else {
		uint32_t h = hash_bytes(s, len) & (t->nslot - 1);
		while (t->slot[h]) h = (h + 1) & (t->nslot - 1);
		t->slot[h] = id + 1;
	}
	return id;
}

const char *ir_str(const Module *m, uint32_t id)
{
	if (id >= m->strtab->n) return "?";
	return m->strbuf + m->strtab->off[id];
}

int32_t ir_find_func(const Module *m, const char *name)
{
	int32_t id = ir_str_find(m, name, strlen(name));
	if (id < 0) return -1;
	for (int32_t i = 0; i < m->nfunc; i++) {
		const Func *f = &m->funcs[i];
		if (!(f->attr & ATTR_PROTO) && m->syms[f->sym].name == (uint32_t)id) return i;
	}
	return -1;
}

int32_t ir_find_sym(const Module *m, const char *name)
{
	int32_t id = ir_str_find(m, name, strlen(name));
	if (id < 0) return -1;
	for (int32_t i = 0; i < m->nglobal; i++)
		if (m->syms[m->globals[i]].name == (uint32_t)id) return m->globals[i];
	return -1;
}

const char *ir_regname(const Module *m, const Func *f, int32_t reg, char *buf, size_t n)
{
	int32_t lo = 0, hi = f->nrdecl - 1;
	while (lo <= hi) {                       /* rdecl is sorted by base */
		int32_t mid = (lo + hi) / 2;
		const RegDecl *d = &f->rdecl[mid];
		int32_t cnt = d->count ? d->count : 1;
		if (reg < d->base) {
			hi = mid - 1;
		} else if (reg >= d->base + cnt) {
			lo = mid + 1;
		} else {
			if (d->count) snprintf(buf, n, "%s%d", ir_str(m, d->name), reg - d->base);
			else snprintf(buf, n, "%s", ir_str(m, d->name));
			return buf;
		}
	}
	snprintf(buf, n, "%%<reg%d>", reg);
	return buf;
}

int32_t ir_label_of(const Func *f, int32_t ins)
{
	for (int32_t i = 0; i < f->nlabel; i++)
		if (f->labels[i].ins == ins) return i;
	return -1;
}

int64_t sym_size(const Sym *s)
{
	if (s->count < 0) return 0;
	int64_t n = ptxtype_size((PtxType)s->type);
	return n * (s->count ? s->count : 1) * (s->vec ? s->vec : 1);
}
