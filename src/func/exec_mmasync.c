/*
 * exec_mmasync.c -- the functional core's mma.sync, ldmatrix and stmatrix
 * (PTX ISA 9.7.14.5).
 *
 * Unlike wmma's, these fragments have a layout the ISA specifies: element
 * slot i of lane l of each fragment (register i / per_reg, lowest bits
 * first) holds the matrix element of mma.c's mma_sync_elem, the ISA's
 * tables in groupID = l >> 2 and threadID_in_group = l % 4.  Real code
 * builds such fragments by hand and with ldmatrix, so rfsim follows them
 * exactly: mma.sync gathers a, b and c from all 32 lanes through that
 * mapping, multiplies with wmma.mma's arithmetic (exec_mma.c's essay:
 * products summed in double, c last, one rounding; .f64 an fma chain;
 * integers exact, .satfinite clamping), and scatters d back.  The ISA
 * requires every lane of the warp to execute it; rfsim reads the sources
 * of all 32 lanes and writes the active ones.
 *
 * ldmatrix.m8n8.xN loads N 8x8 matrices of 16-bit elements: row r of
 * matrix m is 16 contiguous bytes at the address lane 8m + r supplies
 * (shared or generic; 16-byte aligned), and lane l receives in register m
 * the pair (row l / 4, columns 2 (l % 4), + 1) of matrix m -- with .trans
 * the pair (rows 2 (l % 4), + 1, column l / 4), lower column/row in the
 * low half.  stmatrix writes the same rows from the same registers.  Each
 * row is one traced access of lane 8m + r (StepTrace, 16 bytes), so the
 * coalescer counts exactly the bank wavefronts those rows take, one 8x8
 * matrix per phase (StepTrace.phase); a fault
 * names the lane whose address failed.
 */
#include "base/base.h"
#include "func/exec_int.h"

enum { MAXEL = 512 };        /* elements of the largest matrix (m16n8k32's a: 16 x 32) */

static void sync_frag(const DIns *d, int frag, PtxType t, MmaFrag *f)
{
	if (!mma_sync_frag(dins_shape(d), frag, t, f)) die("mma: fragment not checked at load");
}

/* the matrix (row-major) that the fragment in regs holds across the warp */
static void gather(const Warp *w, const DIns *d, const int32_t *regs, int ws, int frag,
                   PtxType t, uint64_t *m)
{
	MmaFrag f;
	sync_frag(d, frag, t, &f);
	int bits = 32 / f.per_reg;
	for (int l = 0; l < 32; l++)
		for (int i = 0; i < f.nregs * f.per_reg; i++) {
			const uint32_t *p = w->regs + ((size_t)(w->rbase + regs[i / f.per_reg]) << 5);
			uint64_t v = ws > 1 ? rd64(p, (uint32_t)l)
			           : bits == 32 ? p[l] : p[l] >> (i % f.per_reg * bits) & ((1u << bits) - 1);
			int r, c;
			mma_sync_elem(dins_shape(d), frag, t, l, i, &r, &c);
			m[r * f.cols + c] = v;
		}
}

void exec_mma_sync(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const MmaRegs *mr = &img->mma[d->imm];
	PtxType at = dins_atype(d), bt = dins_btype(d), ct = (PtxType)d->type2;
	PtxType dt = (PtxType)d->type;
	MmaFrag fa, fb, fd;
	sync_frag(d, FRAG_A, at, &fa), sync_frag(d, FRAG_B, bt, &fb);
	sync_frag(d, FRAG_D, dt, &fd);
	uint64_t a[MAXEL], b[MAXEL], cm[MAXEL], dm[MAXEL];
	gather(w, d, mr->r[0], mr->w[0], FRAG_A, at, a);
	gather(w, d, mr->r[1], mr->w[1], FRAG_B, bt, b);
	gather(w, d, mr->r[2], mr->w[2], FRAG_C, ct, cm);
	exec_mma_compute(at, bt, ct, dt, fa.rows, fb.cols, fa.cols,
	                 (d->mods & MOD_SATFINITE) != 0, a, b, cm, dm);
	int bits = 32 / fd.per_reg;
	LANES(act, l) {
		for (int r = 0; r < fd.nregs; r++) {
			uint64_t v = 0;
			for (int s = 0; s < fd.per_reg; s++) {
				int row, col;
				mma_sync_elem(dins_shape(d), FRAG_D, dt, (int)l, r * fd.per_reg + s, &row, &col);
				v |= dm[row * fd.cols + col] << (s * bits);
			}
			if (d->d[r] >= 0) wrw(dstp(w, d->d[r]), l, d->dw[r], v);
		}
	}
}

/* ---- ldmatrix / stmatrix ----------------------------------------------------------- */

/* the host bytes of row r of matrix m (lane 8m + r's address), NULL after a fault */
static uint8_t *row_at(Cta *c, Warp *w, const DIns *d, uint32_t lane, int store)
{
	uint64_t a = exec_addr_of(w, c->L->img, d, lane);
	if (w->trace) w->trace->phase = 8;
	return exec_span(c, w, lane, d, d->space, a, 16, 16, store, 1);
}

/* element (row, col) of a matrix held in registers, as lane and half of its register */
static void holder(int trans, int row, int col, uint32_t *lane, int *half)
{
	if (trans) {                           /* memory (row, col) = registers (col, row) */
		int t = row;
		row = col, col = t;
	}
	*lane = (uint32_t)(4 * row + col / 2);
	*half = col & 1;
}

int exec_ldmatrix(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	int num = dins_frag(d), trans = dins_layout(d) & 1;
	uint16_t m[4][8][8];
	for (int k = 0; k < num; k++)
		for (int r = 0; r < 8; r++) {
			const uint8_t *p = row_at(c, w, d, (uint32_t)(8 * k + r), 0);
			if (!p) return EX_FAULT;
			for (int j = 0; j < 8; j++) m[k][r][j] = (uint16_t)load_le(p + 2 * j, 2);
		}
	LANES(act, l) {
		int g = (int)l >> 2, q = (int)l & 3;
		for (int k = 0; k < num; k++) {
			uint32_t lo = trans ? m[k][2 * q][g] : m[k][g][2 * q];
			uint32_t hi = trans ? m[k][2 * q + 1][g] : m[k][g][2 * q + 1];
			if (d->d[k] >= 0) wrw(dstp(w, d->d[k]), l, 1, lo | hi << 16);
		}
	}
	return EX_OK;
}

int exec_stmatrix(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	(void)act;                             /* every lane supplies its registers */
	const MmaRegs *mr = &c->L->img->mma[d->imm];
	int num = dins_frag(d), trans = dins_layout(d) & 1;
	w->nwrites++;
	for (int k = 0; k < num; k++) {
		const uint32_t *reg = w->regs + ((size_t)(w->rbase + mr->r[0][k]) << 5);
		for (int r = 0; r < 8; r++) {
			uint8_t *p = row_at(c, w, d, (uint32_t)(8 * k + r), 1);
			if (!p) return EX_FAULT;
			for (int j = 0; j < 8; j++) {
				uint32_t lane;
				int half;
				holder(trans, r, j, &lane, &half);
				store_le(p + 2 * j, 2, reg[lane] >> (16 * half) & 0xffff);
			}
		}
	}
	return EX_OK;
}
