/* decode_int.h -- state shared by decode.c and decode_ins.c (not public). */
#ifndef RFSIM_SIM_DECODE_INT_H
#define RFSIM_SIM_DECODE_INT_H

#include "sim/decode.h"

struct Program;

enum {                       /* what a symbol's address means inside an Image */
	SC_NONE, SC_GLOBAL, SC_CONST, SC_SHARED, SC_KPARAM, SC_FRAME, SC_FUNC,
};

typedef struct DecodeCtx {
	const Module *m;
	const struct Program *p;
	Image *img;
	int64_t *addr;           /* per Sym: address in its space (see sym_class) */
	int32_t *img_of_func;    /* Module.funcs index -> Image.funcs index, -1 */
	int32_t capcode, capimm, capcall;
	uint64_t *immkey;        /* hash of immediate values -> row */
	int32_t *immval;
	int32_t immcap;
	int32_t scratch;         /* first scratch slot of the function being decoded, -1 */
	int32_t nscratch;
} DecodeCtx;

int sym_class(const DecodeCtx *dc, int32_t sym);
int decode_func(DecodeCtx *dc, int32_t fi);
int decode_finish(DecodeCtx *dc);
void decode_ctx_free(DecodeCtx *dc);

#endif
