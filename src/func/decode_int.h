/* decode_int.h -- state shared by decode.c and decode_ins.c (not public). */
#ifndef RFSIM_FUNC_DECODE_INT_H
#define RFSIM_FUNC_DECODE_INT_H

#include "func/decode.h"

enum {                       /* what a symbol's address means inside an Image */
	SC_NONE, SC_GLOBAL, SC_CONST, SC_SHARED, SC_KPARAM, SC_FRAME, SC_FUNC,
};

typedef struct DecodeCtx {
	const Module *m;
	const Placement *pl;
	Image *img;
	int64_t *addr;           /* per Sym: address in its space (see sym_class) */
	int32_t *img_of_func;    /* Module.funcs index -> Image.funcs index, -1 */
	int32_t capcode, capimm, capcall, capmma;
	uint64_t *immkey;        /* hash of immediate values -> row */
	int32_t *immval;
	int32_t immcap;
	int32_t scratch;         /* first scratch slot of the function being decoded, -1 */
	int32_t nscratch;
} DecodeCtx;

int sym_class(const DecodeCtx *dc, int32_t sym);

/* decode_ins.c's building blocks (the instruction being built is the last emitted) */
int dec_bad(const DecodeCtx *dc, const Ins *in, const char *what);   /* RF_EINPUT */
int32_t dec_imm_row(DecodeCtx *dc, uint64_t v);                       /* a source < 0 */
int dec_slots(PtxType t);                                             /* 32-bit slots */
DIns *dec_cur(DecodeCtx *dc);
int dec_add_src(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o, PtxType t);
int dec_set_dst(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o, int k);
int dec_set_addr(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o);
/* d's FAST_* loop, where one applies (decode_fast.c) */
void dec_pick_fast(DIns *d);

/* decode_tc.c */
int decode_cp_async(DecodeCtx *dc, int32_t fi, const Ins *in);
int decode_cp_bulk(DecodeCtx *dc, int32_t fi, const Ins *in);
int decode_wmma_mem(DecodeCtx *dc, int32_t fi, const Ins *in);
int decode_wmma_mma(DecodeCtx *dc, int32_t fi, const Ins *in);   /* and mma */
int decode_matrix_mem(DecodeCtx *dc, int32_t fi, const Ins *in);  /* ldmatrix, stmatrix */
/* decode_tex.c */
int decode_tex(DecodeCtx *dc, int32_t fi, const Ins *in);      /* tex, tld4, suld, sust */
int decode_func(DecodeCtx *dc, int32_t fi);
int decode_finish(DecodeCtx *dc);
void decode_ctx_free(DecodeCtx *dc);

#endif
