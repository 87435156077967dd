/*
 * decode.h -- the executable form of a kernel: PTX lowered once, at load
 * time, into flat arrays the functional core runs without any lookup.
 *
 * One Image per kernel.  It holds the decoded instructions of the kernel
 * and of every device function it can call (so each function's addresses
 * -- shared-memory offsets, the dynamic shared base, frame layouts -- are
 * constants of the Image), the immediate table, and the memory layout the
 * kernel needs: static shared bytes, per-thread local frame sizes, the
 * parameter buffer.
 *
 * Registers.  The functional core keeps every register as 32-bit slots,
 * laid out slot-major per warp: slot s of lane l is R[s * 32 + l], so the
 * per-lane loops walk contiguous memory.  A 64-bit register is two slots,
 * low word first; a 128-bit one four.  Predicates live apart, one 32-bit
 * lane mask per predicate register.  Virtual registers and allocated
 * architected registers (issue 4) are the same to this layer: a register
 * id maps to a slot.  Each function has its own frame of slots and
 * predicates; a call moves the frame bases up, so recursion works.
 *
 * Sources.  A decoded source is an int32: >= 0 is a register slot in the
 * current frame; < 0 is row -(s+1) of the Image's immediate table, which
 * stores every immediate replicated for 32 lanes (two rows, low and high
 * word), so the executor reads every source the same way.
 *
 * Memory operands carry a decoded space (XS_*): symbols are resolved here,
 * so [param0+4] of a call sequence becomes a frame-relative local address
 * and [kernel_param_2] an offset into the kernel's parameter buffer.
 */
#ifndef RFSIM_FUNC_DECODE_H
#define RFSIM_FUNC_DECODE_H

#include <stdint.h>

#include "ptx/ir.h"

enum {                       /* decoded memory spaces */
	XS_GLOBAL,               /* global addresses */
	XS_SHARED,               /* shared-space offset */
	XS_LOCAL,                /* thread-local address */
	XS_FRAME,                /* local address relative to the current frame's base */
	XS_CONST,                /* offset in the module's constant bank */
	XS_KPARAM,               /* offset in the kernel's parameter buffer */
	XS_GENERIC,              /* generic address: window decides */
};

enum {                       /* DIns.flags */
	DF_INTERNAL  = 1 << 0,   /* inserted by decode (reads a special register); not counted */
	DF_FRAMEADDR = 1 << 1,   /* mov: value = imm + frame local base (address of a .local var) */
	DF_DIVERGE   = 1 << 2,   /* branch may diverge (guarded) */
	DF_SIGNED    = 1 << 3,   /* type is signed integer */
	DF_FLOAT     = 1 << 4,   /* type is float */
	DF_PRED_DST  = 1 << 5,   /* d[0] is a predicate */
	DF_SREG      = 1 << 6,   /* mov from a special register: imm = SReg, aux = component */
	DF_BUILTIN   = 1 << 7,   /* call of a runtime function rfsim provides: imm = BUILTIN_* */
	DF_IGNSRC    = 1 << 8,   /* cp.async: s[2] is the ignore-src predicate */
	DF_INDIRECT  = 1 << 9,   /* call through a register: s[0] holds the function address */
	DF_SPIN      = 1 << 10,  /* backward branch of a loop that polls memory (an atomic, an
	                            ordered or volatile load): where one path of a diverged warp
	                            spins in it, simt.c may let the warp's waiting lanes go on */
	DF_CBANK     = 1 << 11,  /* ld of a kernel parameter read as a constant-bank operand
	                            (Module.kparam_cbank): an ALU operation to the timing model */
};

enum {                       /* DIns.fast: hot (op, type) pairs with no modifiers */
	FAST_NONE, FAST_ADD_I32, FAST_SUB_I32, FAST_MUL_LO32, FAST_MAD_LO32, FAST_AND_B32,
	FAST_OR_B32, FAST_XOR_B32, FAST_SHL_B32, FAST_SHR_U32, FAST_SHR_S32, FAST_ADD_I64,
	FAST_MUL_WIDE_S32, FAST_MUL_WIDE_U32, FAST_MOV32, FAST_MOV64, FAST_ADD_F32,
	FAST_SUB_F32, FAST_MUL_F32, FAST_FMA_F32, FAST_SELP32, FAST_CVT_U64_U32,
	FAST_CVT_S64_S32, FAST_ADD_F64, FAST_SUB_F64, FAST_MUL_F64, FAST_FMA_F64,
};

#define DINS_MAXD 8          /* destinations (vector loads up to .v8) */
#define DINS_MAXS 8          /* sources (vector stores up to .v8) */

typedef struct DIns {
	uint16_t op;             /* Op */
	uint8_t type, type2;     /* PtxType */
	uint8_t rnd, cmp, bop, aop, mode;
	uint8_t space;           /* XS_* for memory ops; Space for cvta/isspacep */
	uint8_t nd, ns;          /* decoded destination / source counts */
	uint8_t dw[DINS_MAXD];   /* destination register width in slots (1, 2, 4); 0 = sink */
	uint8_t sneg;            /* bit i: source i is a negated predicate */
	uint8_t spred;           /* bit i: source i is a predicate */
	uint8_t fast;            /* FAST_*: a specialised executor case, 0 = general */
	uint8_t sw[DINS_MAXS];   /* source register width in slots */
	uint16_t flags;          /* DF_* */
	int16_t guard;           /* predicate index in frame, -1 = none */
	uint8_t guard_neg;
	uint8_t elt;             /* element bytes for memory and pack ops */
	uint8_t kind;            /* op_info[op].kind (OpKind), what exec_step switches on */
	uint32_t mods;           /* MOD_* */
	int32_t d[DINS_MAXD];    /* destination slots (predicates: pred index), -1 sink */
	int32_t s[DINS_MAXS];    /* sources: slot >= 0, immediate row < 0 (see above);
	                            predicate sources: pred index */
	int32_t abase;           /* memory ops: address base slot, -1 = none */
	uint8_t aw;              /* memory ops: address base register width in slots */
	int64_t aoff;            /* memory ops: address offset (symbol resolved) */
	int64_t imm;             /* DF_FRAMEADDR offset, special-register id, ... */
	int32_t target;          /* branch target / callee entry pc */
	int32_t reconv;          /* branch reconvergence pc (-1: at exit) */
	int32_t aux;             /* call: index in Image.calls; sreg: component; mbarrier: MBF_* */
	int32_t ir;              /* index of the IR instruction (for reports) */
	int32_t func;            /* index in Image.funcs of the function it belongs to */
	uint32_t line;           /* PTX line */
} DIns;

enum {                       /* device-runtime functions nvcc calls without a body */
	BUILTIN_NONE, BUILTIN_VPRINTF, BUILTIN_ASSERTFAIL, BUILTIN_MALLOC, BUILTIN_FREE,
	BUILTIN_CDP_PARAMBUF,    /* __cudaCDP2GetParameterBufferV2 (cdp.c) */
	BUILTIN_CDP_LAUNCH,      /* __cudaCDP2LaunchDeviceV2 (cdp.c) */
};
int builtin_lookup(const char *name);   /* BUILTIN_* (builtin.c) */

/* cp.async.bulk (mode BULK_*, elt = Ins.frag's BULKF_*): the global or shared::cta side
 * [abase + aoff]; the shared side s[0] + imm; s[1] the size in bytes; into shared memory,
 * the mbarrier at s[2] + aux and, .multicast::cluster, the CTA mask s[3].  Prefetch:
 * [abase + aoff], s[0] bytes.
 * cp.async: [abase + aoff] (global) is copied to s[0] + imm (shared), elt bytes, of which
 * s[1] (src-size) are read and the rest zero-filled.
 * wmma.load: d[] = the fragment, [abase + aoff] its matrix, s[0] the stride (elements);
 * wmma.store: s[0] the stride, Image.mma[imm].r[0] the fragment;
 * wmma.mma: d[] = d, Image.mma[imm].r[0..2] = a, b, c; type = d's type, type2 = c's.
 * aux = shape | frag << 4 | layout << 8 | atype << 16 | btype << 24 (ir.h's fields). */
typedef struct MmaRegs {     /* register slots of the source fragments of a wmma instruction */
	int32_t r[3][8];
	uint8_t n[3];            /* registers of each */
	uint8_t w[3];            /* slots per register: 1, or 2 (f64) */
} MmaRegs;

static inline int dins_shape(const DIns *d) { return d->aux & 15; }
static inline int dins_frag(const DIns *d) { return d->aux >> 4 & 15; }
static inline int dins_layout(const DIns *d) { return d->aux >> 8 & 255; }
static inline PtxType dins_atype(const DIns *d) { return (PtxType)(d->aux >> 16 & 255); }
static inline PtxType dins_btype(const DIns *d) { return (PtxType)(d->aux >> 24 & 255); }

typedef struct CallInfo {    /* one call site: argument and return copies */
	int32_t callee;          /* Image.funcs index; -1 for a builtin or an indirect call
	                            (whose callee's ImgFunc gives arg_dst and ret_src) */
	int32_t nargs, nrets;
	int32_t *arg_src, *arg_dst, *arg_size;   /* frame offsets (caller -> callee) */
	int32_t *ret_src, *ret_dst, *ret_size;   /* frame offsets (callee -> caller) */
} CallInfo;

typedef struct ImgFunc {     /* one function inside an Image */
	int32_t ir_func;         /* Module.funcs index */
	int32_t entry;           /* first pc */
	int32_t end;             /* one past the last pc */
	int32_t nslot, npred;    /* frame size in register slots / predicates */
	int32_t frame_bytes;     /* local frame: .local vars + params + call params */
	int32_t *slot_of;        /* per IR register: slot or pred index, -1 unused */
	int32_t nparam, nret;    /* formal parameters and return parameters */
	int32_t *param_off, *ret_off;  /* their offsets in the local frame (indirect calls) */
} ImgFunc;

typedef struct Image {
	const Module *m;
	int32_t kernel;          /* Module.funcs index of the kernel */
	DIns *code;  int32_t ncode;
	ImgFunc *funcs; int32_t nfunc;   /* funcs[0] is the kernel */
	CallInfo *calls; int32_t ncall;
	MmaRegs *mma; int32_t nmma;      /* wmma.store/.mma source fragments (DIns.imm) */
	uint32_t *imm; int32_t nimm;     /* nimm rows of 32 lanes */
	uint32_t shared_static;  /* bytes of static shared memory */
	uint32_t dyn_base;       /* shared offset where dynamic shared memory starts */
	uint32_t reserved_smem;  /* IMG_RESERVED_SMEM if the kernel reads %reserved_smem_offset_*:
	                            its CTAs' shared memory ends with that region (img_cta_shared) */
	uint32_t param_bytes;    /* kernel parameter buffer size */
	struct ParamInfo *params; int32_t nparam;  /* the kernel's parameters */
	int32_t max_slots, max_preds, max_local;  /* deepest call chain's needs (recursion: capped) */
	int recursive;           /* the call graph below the kernel has a cycle, or an
	                            indirect call makes it unknowable */
	uint64_t code_base;      /* Program.code_dptr: function addresses start here */
	int32_t *img_of_mfunc;   /* per Module.funcs index: Image.funcs index, -1 if absent */
	int32_t nmfunc;
	int regs_per_thread;     /* registers the kernel is reported to use */
	int32_t rm_bs, rm_es;    /* RegMutex's base/extended set sizes (Func.rm_*; 0: none) */
	struct Arena *arena;
} Image;

/* where loading placed a program's module-scope variables and functions
 * (prog.h's Program holds them) */
typedef struct Placement {
	const Module *m;         /* the module the addresses are of */
	const int64_t *addr;     /* per module-scope Sym: address in its space, -1 unplaced */
	uint32_t shared_module;  /* bytes of module-scope .shared variables */
	uint64_t code_dptr;      /* function addresses start here */
} Placement;
/* lower kernel `kernel` of module m: the placed module itself, or another
 * parse of the program's text (its module-scope symbols are the placed
 * module's, in the same order); NULL with err_set("file:line:col: ...") */
Image *image_build(const Placement *pl, const Module *m, int32_t kernel);
void image_free(Image *img);

/* NVIDIA's reserved shared memory (sm_80 on): 1 KB per CTA past the kernel's static and
 * dynamic shared memory, 128-byte aligned, of which cooperative_groups uses 288 bytes at
 * %reserved_smem_offset_1 (the scratch of tiles wider than a warp); the offsets
 * NVIDIA's GPUs report: begin = _0 = _1, end = begin + 288, cap = begin + 1 KB.  Only
 * kernels that read those registers get the region (it does not count in occupancy) */
enum { IMG_RESERVED_SMEM = 1024, IMG_RESERVED_SMEM_USED = 288, IMG_RESERVED_ALIGN = 128 };

static inline uint32_t img_reserved_begin(const Image *img, uint32_t dyn)
{
	return (img->dyn_base + dyn + IMG_RESERVED_ALIGN - 1) & ~(uint32_t)(IMG_RESERVED_ALIGN - 1);
}

/* bytes of shared memory a CTA of img with dyn dynamic bytes has */
static inline uint32_t img_cta_shared(const Image *img, uint32_t dyn)
{
	return img->reserved_smem ? img_reserved_begin(img, dyn) + img->reserved_smem
	                          : img->dyn_base + dyn;
}

#endif
