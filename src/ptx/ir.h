/*
 * ir.h -- rfsim's in-memory form of a PTX module.
 *
 * The parser (parse*.c) builds it, the printer (print.c) writes it back as
 * PTX such that parse(print(m)) == m, the analyses (src/analysis) annotate
 * and transform it, and the functional core (src/func/decode.c) lowers each
 * function once into the compact executable form it runs.
 *
 * Shape.  A Module owns every Sym (module-scope variables, functions and
 * kernels, and also the variables and parameters declared inside function
 * bodies, including the .param scratch variables of call sequences, which
 * are SYM_PARAM like formal parameters).  A
 * Func is a kernel (.entry) or device function (.func): its formal
 * parameters, its register declarations, and one flat array of Ins.
 * Labels are per function (names may repeat in different blocks, as
 * ptxas allows) and point at the index of the instruction that follows
 * them.  Nested `{ }` blocks in a body become SCOPE_BEGIN and
 * SCOPE_END pseudo instructions; a symbol or register declared inside one
 * records that block (its SCOPE_BEGIN index) so the printer can put the
 * declaration back where it was.
 *
 * Registers.  Every register of a function has a dense id 0..nreg-1.  A
 * declaration `.reg .b32 %r<55>;` becomes one RegDecl covering ids
 * base..base+54 named %r0..%r54; `.reg .b64 %rd;` a RegDecl of count 0
 * (a single register named exactly %rd).  Predicates are ordinary
 * registers of type PT_PRED.  Register allocation (issue 4) rewrites a
 * Func so that its registers are architected ones; nothing here assumes
 * virtual registers.
 *
 * Operands are 16-byte values: registers, immediates, symbols, labels,
 * special registers, memory addresses [reg+off] / [sym+off], the sink `_`,
 * and vectors {a,b,...} whose elements live in Func.vops (so call
 * argument lists of any length fit too).  Immediates keep their raw bit
 * pattern: 0f3F800000 is stored as 0x3F800000 with kind OPK_IMM and flag
 * OPDF_F32LIT, so printing can reproduce the spelling class; a decimal
 * literal (1.5) is f32 bits in an f32 instruction and f64 bits elsewhere.
 *
 * Calls.  `call.uni (r), f, (a, b);` has nd = 1 with o[0] the vector of
 * return parameters (nd = 0 when there is none); the sources are the
 * callee (OPK_SYM of a SYM_FUNC, or OPK_REG for an indirect call), the
 * argument vector (always present, maybe empty) and, for indirect calls,
 * the OPK_SYM of the SYM_PROTO naming the .callprototype.
 *
 * Directives without semantics are kept where printing needs them:
 * statement-level `.pragma` in Func.bpragmas, forward declarations of
 * functions in Module.fwd, `.file` names; `.loc` and `.section` (DWARF)
 * are dropped, as are kernel-parameter attributes (.ptr .space .align).
 * A `.callprototype` is a SYM_PROTO declared in a body whose Func
 * (ATTR_PROTO, no body) holds the signature; Module.funcs has these too.
 *
 * Modifiers.  Every modifier with a meaning has a field; those without
 * (cache hints like .L2::256B, .L1::no_allocate, .level::eviction_priority)
 * are kept verbatim as one interned string in Ins.hints, printed back
 * unchanged, and ignored by execution.
 */
#ifndef RFSIM_PTX_IR_H
#define RFSIM_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- opcodes (ops.def) ---------------------------------------------- */

enum { UNIT_NONE, UNIT_ALU, UNIT_SFU, UNIT_DP, UNIT_LDST, UNIT_BRANCH, UNIT_SYNC, UNIT_TENSOR,
       NUNIT };

enum {                       /* op flags (OpInfo.flags) */
	OPF_MEM      = 1 << 0,   /* touches a memory state space */
	OPF_LOAD     = 1 << 1,   /* reads memory into a destination */
	OPF_STORE    = 1 << 2,   /* writes memory */
	OPF_ATOMIC   = 1 << 3,   /* read-modify-write */
	OPF_WARP     = 1 << 4,   /* exchanges data between lanes */
	OPF_BARRIER  = 1 << 5,   /* CTA-wide barrier */
	OPF_BRANCH   = 1 << 6,   /* may change PC to a label */
	OPF_CALL     = 1 << 7,
	OPF_RET      = 1 << 8,
	OPF_EXIT     = 1 << 9,   /* ends the thread */
	OPF_PSEUDO   = 1 << 10,  /* not executed */
	OPF_RFOP     = 1 << 11,  /* register-file directive of a mechanism pass (ops.def) */
};

typedef enum Op {
#define X(e, name, form, unit, kind, gram, flags) OP_##e,
#include "ptx/ops.def"
#undef X
	NOP_
} Op;

/* handler classes (ops.def's kind column): decode and execute switch on these,
 * exhaustively; an op's own handler may then look at the op */
typedef enum OpKind {
	KIND_ARITH,  /* lane arithmetic of one instruction type: decode_alu, eval.c/alu*.c */
	KIND_SETP,   /* a comparison into one or two predicates: decoded as ARITH */
	KIND_MOV,    /* mov: copies, packs, special registers */
	KIND_ADDR,   /* cvta, isspacep, mapa, getctarank: address arithmetic */
	KIND_LD,     /* ld, ldu */
	KIND_ST,     /* st */
	KIND_ATOM,   /* atom, red */
	KIND_WARP,   /* shfl, vote, match, redux, activemask, elect: lanes exchange values */
	KIND_BAR,    /* CTA and cluster barriers */
	KIND_BRA,    /* bra */
	KIND_CALL,   /* call */
	KIND_RET,    /* ret, exit */
	KIND_TRAP,   /* trap */
	KIND_ASYNC,  /* cp.async, cp.async.bulk: copies made at issue */
	KIND_WAIT,   /* cp.async group commits and waits, nanosleep: the lanes yield */
	KIND_MBAR,   /* mbarrier objects */
	KIND_TENSOR, /* wmma, mma, ldmatrix, stmatrix: warp-wide matrix fragments */
	KIND_TEX,    /* tex, tld4, suld, sust */
	KIND_HINT,   /* prefetch, membar, fence, brkpt, griddepcontrol: no functional effect */
	KIND_RFOP,   /* rfsim's register-file directives (no-ops to the functional core) */
	KIND_PSEUDO, /* { } scopes, removed by decode */
} OpKind;

/* modifier grammars (ops.def's grammar column): parse_ins.c's modifier() and the
 * printer switch on these, exhaustively */
typedef enum ModGram {
	MG_BASE,     /* the shared modifier table (parse_ins.c) */
	MG_VIDEO,    /* BASE and a third type, the SIMD video .btype */
	MG_CVT,      /* BASE and .satfinite (the FP8 conversions) */
	MG_FENCE,    /* BASE, or the proxy and mbarrier_init forms (kept as hints) */
	MG_CLUSTER,  /* barrier.cluster.arrive|wait and their semantics */
	MG_GRIDDEP,  /* griddepcontrol.launch_dependents|wait */
	MG_MBAR,     /* mbarrier.* and cp.async.mbarrier.arrive (parse_mbar.c) */
	MG_ASYNC,    /* cp.async and its group commit and waits (parse_tc.c) */
	MG_BULK,     /* cp.async.bulk (parse_tc.c) */
	MG_WMMA,     /* wmma.load, .store, .mma (parse_tc.c) */
	MG_MMA,      /* mma.sync (parse_tc.c) */
	MG_MATRIX,   /* ldmatrix, stmatrix (parse_tc.c) */
	MG_TEX,      /* tex, tld4, suld, sust (parse_tex.c) */
} ModGram;

typedef struct OpInfo {
	const char *name;            /* PTX mnemonic */
	const char *form;            /* its operands (ops.def): "a=aa" ... */
	uint8_t unit;                /* UNIT_* */
	uint8_t kind;                /* OpKind */
	uint8_t gram;                /* ModGram */
	uint16_t flags;              /* OPF_* */
} OpInfo;

extern const OpInfo op_info[NOP_];
/* mnemonic -> Op or -1: through an index built once by its user (op_index; the
 * parser keeps one), or op_lookup, which builds its own */
enum { OPINDEX = 256 };
typedef struct OpIndex { int16_t slot[OPINDEX]; } OpIndex;    /* Op + 1, 0: empty */
void op_index(OpIndex *x);
int op_find(const OpIndex *x, const char *mnemonic, size_t len);
int op_lookup(const char *mnemonic, size_t len);

/* ---- types ---------------------------------------------------------- */

typedef enum PtxType {
	PT_NONE,
	PT_B8, PT_B16, PT_B32, PT_B64, PT_B128,
	PT_U8, PT_U16, PT_U32, PT_U64,
	PT_S8, PT_S16, PT_S32, PT_S64,
	PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_TF32, PT_F32, PT_F64,
	PT_U16X2, PT_S16X2,      /* sm_90 add/min/max on packed half words (.b32 registers) */
	PT_E4M3X2, PT_E5M2X2,    /* two FP8 values (cvt only; .b16 registers) */
	PT_PRED,
	NPTXTYPE
} PtxType;

extern const char *const ptxtype_name[NPTXTYPE];   /* "b32", ... ("" for NONE) */
int ptxtype_size(PtxType t);        /* bytes: b8=1 ... pred=0 (not addressable) */
int ptxtype_is_signed(PtxType t);   /* s8..s64 */
int ptxtype_is_float(PtxType t);    /* f16, f16x2, bf16, bf16x2, tf32, f32, f64 */
PtxType ptxtype_lookup(const char *s, size_t len);  /* without the dot; NONE if unknown */

/* ---- modifiers ------------------------------------------------------ */

typedef enum Space {         /* state spaces */
	SP_NONE,                 /* generic addressing (no space given) */
	SP_REG, SP_SREG, SP_CONST, SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_SHARED,
	SP_SHARED_CLUSTER,       /* .shared::cluster */
	SP_TEX,
	NSPACE
} Space;
extern const char *const space_name[NSPACE];

typedef enum Cmp {           /* setp/set comparison */
	CMP_NONE,
	CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,          /* signed/float ordered */
	CMP_LO, CMP_LS, CMP_HI, CMP_HS,                          /* unsigned */
	CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU,    /* float unordered */
	CMP_NUM, CMP_NAN,
	NCMP
} Cmp;
extern const char *const cmp_name[NCMP];

typedef enum BoolOp { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR, NBOOLOP } BoolOp;

typedef enum Rnd {           /* rounding modifiers */
	RND_NONE,
	RND_RN, RND_RZ, RND_RM, RND_RP,       /* float result rounding */
	RND_RNI, RND_RZI, RND_RMI, RND_RPI,   /* round to integral value */
	RND_RNA, RND_RS,
	NRND
} Rnd;
extern const char *const rnd_name[NRND];

typedef enum AtomOp {        /* atom/red/redux/bar.red operation */
	AOP_NONE,
	AOP_AND, AOP_OR, AOP_XOR, AOP_CAS, AOP_EXCH, AOP_ADD, AOP_INC, AOP_DEC,
	AOP_MIN, AOP_MAX, AOP_POPC,
	NATOMOP
} AtomOp;
extern const char *const atomop_name[NATOMOP];

typedef enum Mode {          /* per-op sub mode (Ins.mode); meaning depends on op */
	MODE_NONE,
	/* mul/mad/mul24/mad24 */
	MODE_LO, MODE_HI, MODE_WIDE,
	/* shfl */
	MODE_UP, MODE_DOWN, MODE_BFLY, MODE_IDX,
	/* vote */
	MODE_ALL, MODE_ANY, MODE_UNI, MODE_BALLOT,
	/* bar / barrier */
	MODE_SYNC, MODE_ARRIVE, MODE_RED,
	/* membar / fence scope */
	MODE_CTA, MODE_GL, MODE_GPU, MODE_SYS, MODE_CLUSTER,
	/* testp */
	MODE_FINITE, MODE_INFINITE, MODE_NUMBER, MODE_NOTANUMBER, MODE_NORMAL, MODE_SUBNORMAL,
	/* prmt */
	MODE_F4E, MODE_B4E, MODE_RC8, MODE_ECL, MODE_ECR, MODE_RC16,
	/* shf */
	MODE_L, MODE_R,
	/* match */
	MODE_MATCH_ANY, MODE_MATCH_ALL,
	/* suld/sust out-of-range coordinates */
	MODE_SU_TRAP, MODE_SU_CLAMP, MODE_SU_ZERO,
	/* tld4 component */
	MODE_TLD4_R, MODE_TLD4_G, MODE_TLD4_B, MODE_TLD4_A,
	NMODE
} Mode;
extern const char *const mode_name[NMODE];

enum {                       /* Ins.mods bits: modifiers that are flags */
	MOD_FTZ      = 1 << 0,
	MOD_SAT      = 1 << 1,
	MOD_APPROX   = 1 << 2,
	MOD_FULL     = 1 << 3,   /* div.full; suld/sust: the .b (unformatted) form was written */
	MOD_CC       = 1 << 4,   /* writes the carry flag (add.cc ...) */
	MOD_UNI      = 1 << 5,   /* bra.uni / call.uni / ret.uni */
	MOD_SYNC     = 1 << 6,   /* shfl.sync, vote.sync, ... */
	MOD_ALIGNED  = 1 << 7,   /* barrier.sync.aligned */
	MOD_TO       = 1 << 8,   /* cvta.to.space */
	MOD_NC       = 1 << 9,   /* ld.global.nc */
	MOD_VOLATILE = 1 << 10,
	MOD_RELAXED  = 1 << 11,  /* memory-order qualifiers */
	MOD_ACQUIRE  = 1 << 12,
	MOD_RELEASE  = 1 << 13,
	MOD_ACQ_REL  = 1 << 14,
	MOD_WEAK     = 1 << 15,
	MOD_SC       = 1 << 16,
	MOD_CLAMP    = 1 << 17,  /* shf.clamp */
	MOD_WRAP     = 1 << 18,  /* shf.wrap */
	MOD_SHIFTAMT = 1 << 19,  /* bfind.shiftamt */
	MOD_NOFTZ    = 1 << 20,  /* explicit .noftz (ignored semantics: not ftz) */
	MOD_NAN      = 1 << 21,  /* min.NaN / max.NaN */
	MOD_RELU     = 1 << 22,  /* cvt .relu */
	MOD_MMIO     = 1 << 23,
	MOD_XORSIGN  = 1 << 24,  /* min/max .xorsign.abs */
	MOD_ABS      = 1 << 25,
	MOD_WARP     = 1 << 26,  /* bar.warp.sync (__syncwarp): a warp barrier, not a CTA one */
	MOD_CG       = 1 << 27,  /* cp.async.cg (L2 only); cp.async.ca has it clear */
	MOD_SATFINITE = 1 << 28, /* wmma.mma, mma .satfinite */
	MOD_TRANS    = 1 << 29,  /* ldmatrix/stmatrix .trans */
	MOD_VB_S32   = 1 << 30,  /* SIMD video: the third type (.btype) is .s32, not .u32 */
};

typedef enum MmaShape {      /* wmma, mma and ldmatrix/stmatrix shapes (Ins.shape) */
	MMA_NONE, MMA_M16N16K16, MMA_M32N8K16, MMA_M8N32K16, MMA_M16N16K8, MMA_M8N8K4,
	MMA_M16N8K16, MMA_M16N8K8, MMA_M16N8K4, MMA_M16N8K32,   /* mma.sync only */
	MMA_M8N8,                                                /* ldmatrix/stmatrix */
	NMMASHAPE
} MmaShape;
extern const char *const mma_shape_name[NMMASHAPE];   /* "m16n16k16", ... */

typedef enum TexGeom {       /* tex, tld4, suld, sust geometry (Ins.shape) */
	TEXG_NONE, TEXG_1D, TEXG_2D, TEXG_3D, TEXG_A1D, TEXG_A2D,
	NTEXGEOM
} TexGeom;
extern const char *const texgeom_name[NTEXGEOM];      /* "1d", ... */

enum { FRAG_NONE, FRAG_A, FRAG_B, FRAG_C, FRAG_D };    /* wmma.load/.store fragment */
enum { LAYOUT_ROW = 1, LAYOUT_COL = 2 };               /* Ins.layout nibbles */
enum {                       /* cp.async.bulk: Ins.mode (its Ins.frag: BULKF_*) */
	BULK_G2S = 1, BULK_S2S, BULK_S2G, BULK_PREFETCH, BULK_COMMIT, BULK_WAIT
};
enum { BULKF_SRC_SHARED = 1, BULKF_MULTICAST = 2, BULKF_HINT = 4, BULKF_MBAR = 8,
       BULKF_GROUP = 16, BULKF_READ = 32 /* wait_group.read */,
       BULKF_DST_SHARED = 32 /* copies */, BULKF_DST_SET = 64, BULKF_SRC_SET = 128 };
enum {                       /* mbarrier.*, cp.async.mbarrier.arrive: Ins.frag bits */
	MBF_PARITY = 1,          /* test_wait/try_wait .parity: o[2] is a phase parity */
	MBF_EXPECT_TX = 2,       /* arrive{_drop}.expect_tx: o[2] is a tx-count */
	MBF_NOCOMPLETE = 4,      /* arrive{_drop}.noComplete: must not complete the phase */
	MBF_NOINC = 8,           /* cp.async.mbarrier.arrive.noinc */
};

/* ---- operands ------------------------------------------------------- */

typedef enum OpdKind {
	OPK_NONE,
	OPK_REG,     /* reg = register id */
	OPK_IMM,     /* imm = raw bits (integer value, or float bits if OPDF_FLOAT*) */
	OPK_SREG,    /* reg = SReg, comp = component (0 none, 1 x, 2 y, 3 z) */
	OPK_SYM,     /* reg = symbol id (variable, function, param) */
	OPK_LABEL,   /* reg = label id within the function */
	OPK_ADDR,    /* [base + imm]: base is a register (reg) or, with OPDF_SYMBASE, a
	                symbol (reg = symbol id); reg = -1 for an absolute [imm] */
	OPK_SINK,    /* '_' */
	OPK_VEC,     /* {e0, e1, ...}: n elements at Func.vops[reg ..] */
	NOPK
} OpdKind;

enum {                       /* Operand.flags */
	OPDF_NEG     = 1 << 0,   /* '!' before a predicate operand */
	OPDF_SYMBASE = 1 << 1,   /* OPK_ADDR base is a symbol */
	OPDF_F32LIT  = 1 << 2,   /* immediate was written as a float (0f... or 1.5) of f32 */
	OPDF_F64LIT  = 1 << 3,   /* immediate was written as a double (0d... or 1.5e3) */
	OPDF_PIPE    = 1 << 4,   /* second destination after '|' (setp p|q, shfl r|p) */
	OPDF_HEXLIT  = 1 << 5,   /* integer written in hex (0x3210): printed back in hex */
};

typedef struct Operand {
	uint8_t kind;            /* OpdKind */
	uint8_t flags;           /* OPDF_* */
	uint8_t n;               /* OPK_VEC: element count */
	uint8_t comp;            /* OPK_SREG: 0, 1=.x 2=.y 3=.z */
	int32_t reg;             /* see OpdKind */
	int64_t imm;             /* immediate bits, or address offset */
} Operand;

typedef enum SReg {          /* special registers */
	SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID, SR_NWARPID,
	SR_SMID, SR_NSMID, SR_GRIDID,
	SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
	SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO,
	SR_GLOBALTIMER_HI,
	SR_DYNAMIC_SMEM_SIZE, SR_TOTAL_SMEM_SIZE, SR_AGGR_SMEM_SIZE,
	SR_RSMEM_BEGIN, SR_RSMEM_END, SR_RSMEM_CAP,   /* %reserved_smem_offset_begin/end/cap */
	SR_RSMEM_0, SR_RSMEM_1,                       /* %reserved_smem_offset_0, _1 */
	SR_CLUSTERID, SR_NCLUSTERID, SR_CLUSTER_CTAID, SR_CLUSTER_NCTAID,
	SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK, SR_IS_EXPLICIT_CLUSTER,
	SR_ENVREG,               /* %envreg0..31: comp holds the index */
	SR_PM,                   /* %pm0..7: comp holds the index */
	NSREG
} SReg;
extern const char *const sreg_name[NSREG];   /* without '%' */

/* ---- instructions ---------------------------------------------------- */

#define INS_MAXOPD 8

typedef struct Ins {
	uint16_t op;             /* Op */
	uint8_t type;            /* PtxType: the first type written (d type of cvt and set) */
	uint8_t type2;           /* PtxType: the second (source of cvt/set, c of slct, b of
	                            dp4a), PT_NONE if only one is written */
	uint8_t space;           /* Space for ld/st/atom/red/cvta/isspacep/prefetch */
	uint8_t vec;             /* vector width .v2/.v4/.v8 (0 = scalar) */
	uint8_t cmp;             /* Cmp for setp/set */
	uint8_t bop;             /* BoolOp for setp/set */
	uint8_t rnd;             /* Rnd */
	uint8_t aop;             /* AtomOp */
	uint8_t mode;            /* Mode */
	uint8_t guard_neg;       /* 1: @!p */
	int32_t guard;           /* predicate register id guarding it, -1 if none */
	uint32_t mods;           /* MOD_* */
	uint32_t hints;          /* interned string of modifiers kept verbatim, 0 = none */
	uint8_t nd, ns;          /* destination and source operand counts */
	uint8_t shape;           /* wmma, mma, ldmatrix, stmatrix: MmaShape; tex, tld4, suld,
	                            sust: TexGeom */
	uint8_t frag;            /* wmma.load/.store: FRAG_*; ldmatrix/stmatrix: matrices
	                            (.x1/.x2/.x4: 1, 2, 4); mbarrier: MBF_* */
	uint8_t layout;          /* wmma: LAYOUT_* of the (first) matrix in the low nibble, of
	                            wmma.mma's b in the high one */
	uint8_t type3, type4;    /* wmma.mma's third and fourth types (.dtype.atype.btype.ctype:
	                            type, type2, type3, type4; .dtype.ctype: type, type2) */
	Operand o[INS_MAXOPD];   /* o[0..nd) destinations, o[nd..nd+ns) sources */
	uint32_t line, col;      /* PTX source position (1-based) */
} Ins;

/* ---- operand forms (ops.def's form column, form.c) ------------------------ */

typedef struct FormShape {   /* the operand counts a form allows */
	int8_t nd;               /* destinations, not counting a piped second one: 0 or 1 */
	int8_t pipe;             /* 1: a second destination may follow a '|' */
	int8_t lo, hi;           /* source operand count */
} FormShape;

const char *ins_form(const Ins *in);      /* the form in's op and modifiers select */
FormShape form_shape(const char *form);
/* the class letters (ops.def) of o[0..INS_MAXOPD) of an instruction of that form
 * with nd destinations and ns sources, 0 where it has no such operand; one of them */
void form_classes(const char *form, int nd, int ns, char *cls);
int form_class(const char *form, int nd, int ns, int k);

/* ---- symbols, registers, functions ------------------------------------ */

typedef enum SymKind {
	SYM_VAR, SYM_FUNC, SYM_PARAM,
	SYM_PROTO,               /* `name: .callprototype ...` of an indirect call: func is the
	                            Func (ATTR_PROTO) holding the signature; declared in a body */
} SymKind;

enum {                       /* Sym.attr / Func.attr linkage and directive bits */
	ATTR_VISIBLE = 1 << 0, ATTR_EXTERN = 1 << 1, ATTR_WEAK = 1 << 2,
	ATTR_COMMON = 1 << 3, ATTR_NORETURN = 1 << 4, ATTR_ENTRY = 1 << 5,
	ATTR_ABI_PRESERVE = 1 << 6,
	ATTR_PROTO = 1 << 7,     /* Func of a .callprototype: a signature only, never called */
	ATTR_EXPLICIT_CLUSTER = 1 << 8,   /* .explicitcluster */
};

typedef struct Sym {
	uint32_t name;           /* interned string */
	uint8_t kind;            /* SymKind */
	uint8_t space;           /* Space (SYM_PARAM: SP_PARAM; SYM_FUNC: SP_NONE) */
	uint8_t type;            /* PtxType of one element */
	uint8_t vec;             /* .v2/.v4 element vector width, 0 = scalar */
	uint32_t attr;           /* ATTR_* */
	uint32_t align;          /* bytes; 0 = natural */
	int64_t count;           /* array elements (dims multiplied); 0 = scalar; -1 = unsized [] */
	uint8_t *init;           /* initializer bytes (size bytes), NULL if none */
	int32_t init_nsym;       /* initializer entries that are addresses: see below */
	struct SymInit *isyms;   /* {offset, symbol, addend} for `= {sym, generic(sym)+4}` */
	int32_t func;            /* SYM_FUNC/SYM_PROTO: index in Module.funcs; else owning
	                            func or -1 (params of a prototype: the prototype's Func) */
	int32_t scope;           /* index of the SCOPE_BEGIN Ins that declares it, -1 = body */
	uint32_t line, col;      /* declaration position */
} Sym;

typedef struct SymInit {
	int64_t offset;          /* byte offset in the variable */
	int32_t sym;             /* symbol whose address is stored */
	uint8_t generic;         /* 1: generic(sym) */
	uint8_t size;            /* bytes stored (4 or 8) */
	int64_t addend;
} SymInit;

typedef struct RegDecl {
	uint32_t name;           /* interned prefix, e.g. "%r"; or full name if count==0 */
	uint8_t type;            /* PtxType */
	uint8_t vec;             /* .v2/.v4 register vectors (rare), 0 = scalar */
	int32_t base;            /* first register id */
	int32_t count;           /* 0: single register named exactly `name`;
	                            N: registers name0..name(N-1) */
	int32_t scope;           /* as Sym.scope */
} RegDecl;

typedef struct Label {
	uint32_t name;           /* interned */
	int32_t ins;             /* index of the instruction it precedes (nins if at end) */
} Label;

typedef struct Pragma {      /* `.pragma "nounroll";` written as a statement in a body */
	int32_t ins;             /* index of the instruction it precedes, like Label.ins */
	uint32_t text;           /* interned string, without quotes */
} Pragma;

typedef struct RegSet {      /* architected general registers R0..R255: a PREFETCH bit-vector */
	uint64_t w[4];           /* bit n = Rn; a 64-bit pair sets both of its slots */
} RegSet;

typedef struct Func {
	int32_t sym;             /* its Sym */
	uint32_t attr;           /* ATTR_* (ATTR_ENTRY for kernels) */
	int32_t *params;         /* formal parameter symbol ids */
	int32_t nparam;
	int32_t *rets;           /* return parameter symbol ids (.func only) */
	int32_t nret;
	int8_t has_body;         /* 0 for a prototype (.extern .func / declaration) */
	/* performance-tuning directives (0 = absent) */
	int32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxclusterrank;
	int32_t reqnctapercluster[3];
	uint32_t pragmas;        /* interned, ';'-joined .pragma strings before the body */
	RegDecl *rdecl;  int32_t nrdecl;
	int32_t nreg;            /* registers ids 0..nreg-1 */
	uint8_t *regtype;        /* nreg: PtxType of each register */
	Ins *ins;        int32_t nins;
	Label *labels;   int32_t nlabel;
	Operand *vops;   int32_t nvop;    /* vector / argument-list elements */
	Pragma *bpragmas; int32_t nbpragma; /* statement-level .pragma, by instruction index */
	int32_t *locals; int32_t nlocal;  /* Sym ids declared in the body (vars + params) */
	uint32_t line, col;
	/* set by register allocation (src/analysis/regalloc.c); phys == NULL: virtual */
	int32_t *phys;           /* nreg: each register's architected slot: Rn's n (a 64-bit
	                            pair or 128-bit quad: its first, aligned slot), or a
	                            predicate's index Pn */
	int32_t nphys;           /* architected 32-bit registers R0..R(nphys-1) it uses */
	int32_t nphys_pred;      /* predicate registers P0..P(nphys_pred-1) */
	int32_t regs_per_thread; /* registers reported for it, callees included (pass.c) */
	/* set by LTRF PREFETCH insertion (src/analysis/prefetch.c) */
	RegSet *rsets;           /* register sets that rfsim.prefetch's o[0].imm indexes */
	int32_t nrset;           /* entries of rsets (0: no PREFETCH inserted) */
	/* set by the RegMutex pass (src/analysis/regmutex.c) on kernels it transformed */
	int32_t rm_bs, rm_es;    /* base and extended register set sizes (0, 0: untouched) */
	int32_t rm_threads;      /* threads per CTA its |Es| choice assumed (0: not considered:
	                            not an allocated kernel, or it calls; -1: a forced |Es|
	                            breaks deadlock rule 1 at the assumed size, so every
	                            launch decides for its own) */
	int64_t rm_shared;       /* shared memory per CTA it assumed, bytes */
} Func;

typedef struct FwdDecl {    /* a function prototype written before its definition */
	int32_t before;          /* printed just before globals[before] (nglobal: at the end) */
	int32_t sym;             /* SYM_FUNC */
	uint32_t attr;           /* linkage written on this declaration (ATTR_*) */
} FwdDecl;

typedef struct Alias {       /* .alias sym, target; -- calls to sym run target */
	int32_t sym, target;     /* SYM_FUNC ids */
} Alias;

typedef struct Module {
	char *filename;          /* for messages */
	int32_t version_major, version_minor;   /* .version */
	uint32_t target;         /* interned .target string: "sm_90", "sm_90a, texmode_independent" */
	int32_t address_size;    /* 32 or 64 */
	uint8_t debug;           /* `.target ..., debug` (nvcc -G); not printed, like the DWARF */
	uint8_t kparam_cbank;    /* 1: kernel-parameter loads stand for constant-bank operands
	                            (compiler.schedule=latency; remat.c, pass.c): timing issues
	                            them as ALU operations (timing/tins.c) */
	Sym *syms;       int32_t nsym;
	Func *funcs;     int32_t nfunc;     /* kernels, functions, and ATTR_PROTO signatures */
	int32_t *globals; int32_t nglobal;  /* module-scope Sym ids (vars and funcs), in file order;
	                                       a function sits where its body is (or its first
	                                       declaration if it has none), once */
	FwdDecl *fwd;    int32_t nfwd;      /* other declarations of functions, in file order */
	Alias *aliases;  int32_t nalias;    /* .alias directives */
	uint32_t pragmas;        /* interned, ';'-joined module-scope .pragma strings */
	uint32_t *file_names; int32_t nfile; /* .file N "name": index N -> interned */
	/* a launch's shape for the RegMutex pass (0: assume it from the kernel's
	   directives); set by gpu.c when it recompiles a kernel for a launch, and
	   only for that kernel (launch_func, a funcs index; -1: every kernel, as
	   rfsim analyze -b sets it): the module's other kernels keep their
	   load-time assumption */
	int32_t launch_threads;
	uint32_t launch_dyn_shared;
	int32_t launch_func;
	/* string interning */
	char *strbuf;    size_t strlen_, strcap;
	struct StrTab *strtab;
	struct Arena *arena;     /* owns all the above arrays */
} Module;

/* ---- module API (ir.c) --------------------------------------------- */

Module *ir_new(const char *filename);
void ir_free(Module *m);
uint32_t ir_intern(Module *m, const char *s, size_t len);  /* 0 is "" */
int32_t ir_str_find(const Module *m, const char *s, size_t len);  /* id or -1; no insert */
const char *ir_str(const Module *m, uint32_t id);
int32_t ir_find_func(const Module *m, const char *name);   /* -> funcs index or -1 */
int32_t ir_find_sym(const Module *m, const char *name);    /* module scope only */
const char *ir_regname(const Module *m, const Func *f, int32_t reg, char *buf, size_t n);
int32_t ir_label_of(const Func *f, int32_t ins);          /* label at ins, -1 if none */
int64_t sym_size(const Sym *s);       /* bytes: element size * max(count,1) * max(vec,1);
                                         0 for an unsized [] array */
int ir_equal(const Module *a, const Module *b, char *why, size_t n);  /* 1 if same IR */

/* ---- wmma geometry (mma.c) ------------------------------------------- */

typedef struct MmaFrag {     /* one wmma fragment: the matrix it holds and its registers */
	int rows, cols;          /* matrix a: M x K, b: K x N, c/d: M x N */
	int esize;               /* element bytes in memory */
	int nregs;               /* registers per thread (PTX ISA's fragment tables) */
	int per_reg;             /* elements per register (f16x2: 2, s8 x4: 4, f64: 1) */
	int reg_bits;            /* register width: 32 or 64 */
} MmaFrag;

/* the fragment `frag` (FRAG_*) of shape `shape` whose elements are of type t; 0 if
 * PTX has no such fragment */
int mma_frag(int shape, int frag, PtxType t, MmaFrag *out);
/* the element type of each fragment of a wmma.mma (FRAG_A..FRAG_D) from its types */
PtxType mma_type(const Ins *in, int frag);
/* the same geometry for mma.sync's fragments (PTX ISA 9.7.14.5, "Matrix fragments
 * for mma.m*n*k*"), 0 if mma.sync has no such fragment; no element is duplicated */
int mma_sync_frag(int shape, int frag, PtxType t, MmaFrag *out);
/* where element slot i (register i / per_reg, part i % per_reg) of lane `lane` of
 * that fragment lies in its matrix: the ISA's groupID/threadID_in_group tables */
void mma_sync_elem(int shape, int frag, PtxType t, int lane, int i, int *row, int *col);
/* multiply-accumulates of one mma.sync of the shape (m * n * k) */
int mma_sync_macs(int shape);

#endif
