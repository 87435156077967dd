/*
 * coalesce.c -- what a warp's memory instruction asks of memory.
 *
 * The functional core reports each active lane's space, address and
 * access size (StepTrace).  From it:
 *
 *   global, local   the distinct lines touched (GPGPU-Sim's Fermi
 *                   coalescer at line granularity: a warp reading 32
 *                   consecutive words is one 128-byte request; a lane's
 *                   access may span lines: a wmma row segment), and the
 *                   parts of each line (eighths) the lanes touch, which a
 *                   sectored L2 fetches and sends alone.  Local
 *                   addresses are per thread; they are laid out in the
 *                   local window with consecutive threads' words adjacent,
 *                   as NVIDIA interleaves local memory.
 *   shared          wavefronts: the largest number of distinct 4-byte words
 *                   any bank is asked for (lanes reading the same word are
 *                   served together, a broadcast).  One wavefront per cycle.
 *                   ldmatrix/stmatrix (StepTrace.phase): each 8x8 matrix,
 *                   eight 16-byte rows, is its own phase, as the hardware
 *                   serves them: the sum of the phases' wavefronts.
 *   const, param    distinct words (the constant cache serves one address
 *                   per cycle, broadcast to the lanes asking for it) and
 *                   the distinct lines behind them.
 *   cp.async        the lines of its global sources, and the wavefronts of
 *                   its shared destinations (StepTrace.saddr).
 *   tex, tld4       global: each lane's first row of texels, and the other
 *                   rows and slices a filtered fetch reads (StepTrace.xaddr).
 * An access past MEMOP_MAXLINES distinct lines (possible only for a wmma
 * matrix whose 32 row segments all straddle lines, or a filtered texture
 * fetch whose lanes read scattered rows) is not sent.
 */
#include "mem/mem.h"

#include <string.h>

#include "func/decode.h"
#include "func/warp.h"

static void add_line(uint64_t *v, uint16_t *n, int cap, uint64_t la)
{
	for (int i = *n - 1; i >= 0; i--)
		if (v[i] == la) return;
	if (*n < cap) v[(*n)++] = la;
}

/* the same for global lines, which may be 32 different ones: the last line
 * (consecutive lanes) is checked first, then a 64-slot hash set; the line's
 * index in op->line, or -1 past MEMOP_MAXLINES */
typedef struct LineSet { uint64_t key[64]; uint8_t at[64]; uint64_t used; } LineSet;

static int add_global(MemOp *op, LineSet *hs, uint64_t la)
{
	if (op->nline && op->line[op->nline - 1] == la) return op->nline - 1;
	uint32_t h = (uint32_t)((la * 0x9e3779b97f4a7c15ull) >> 58);
	while (hs->used >> h & 1) {
		if (hs->key[h] == la) return hs->at[h];
		h = (h + 1) & 63;
	}
	if (op->nline == MEMOP_MAXLINES) return -1;       /* (keeps the hash set below full) */
	hs->used |= 1ull << h;
	hs->key[h] = la;
	hs->at[h] = (uint8_t)op->nline;
	op->part[op->nline] = 0;
	op->line[op->nline++] = la;
	return op->nline - 1;
}

/* the lines of bytes [a, a + n), with the parts of each it touches */
static void add_bytes(MemOp *op, LineSet *hs, const CoalesceCfg *cc, uint64_t a, uint32_t n)
{
	uint32_t sh = cc->line_shift, lb = 1u << sh;
	uint64_t end = a + (n ? n : 1) - 1;
	for (uint64_t la = a >> sh; la <= end >> sh; la++) {
		int i = add_global(op, hs, la);
		if (i < 0) continue;
		uint64_t lo = la << sh > a ? 0 : a - (la << sh);
		uint64_t hi = ((la + 1) << sh) - 1 < end ? lb - 1 : end - (la << sh);
		uint32_t p0 = (uint32_t)(lo * MEM_PARTS >> sh), p1 = (uint32_t)(hi * MEM_PARTS >> sh);
		op->part[i] |= (uint8_t)(((2u << p1) - 1) & ~((1u << p0) - 1));
	}
}

/* wavefronts of the shared-memory accesses of lanes `m`: the most distinct
 * words any bank holds.  Fast path: every bank asked for one word (its
 * lanes broadcast); only a real conflict counts words per bank. */
static uint16_t smem_waves(const uint64_t *addr, uint32_t nbytes, uint32_t m, uint32_t nbanks)
{
	uint32_t per = nbytes > 4 ? nbytes / 4 : 1;
	uint32_t first[256], words[1024], nw = 0;
	uint64_t seen[4] = {0};
	int conflict = 0;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(mm);
		for (uint32_t k = 0; k < per; k++) {
			uint32_t w = (uint32_t)(addr[l] / 4) + k, b = w % nbanks;
			if (nw < 1024) words[nw++] = w;
			if (!(seen[b >> 6] >> (b & 63) & 1)) {
				seen[b >> 6] |= 1ull << (b & 63);
				first[b] = w;
			} else if (first[b] != w) {
				conflict = 1;
			}
		}
	}
	if (!conflict) return 1;
	for (uint32_t i = 1; i < nw; i++) {       /* sort, then count distinct words per bank */
		uint32_t x = words[i], k = i;
		for (; k > 0 && words[k - 1] > x; k--) words[k] = words[k - 1];
		words[k] = x;
	}
	uint8_t cnt[256];
	for (uint32_t i = 0; i < nw; i++) cnt[words[i] % nbanks] = 0;
	uint16_t worst = 1;
	for (uint32_t i = 0; i < nw; i++) {
		if (i && words[i] == words[i - 1]) continue;
		uint8_t c = ++cnt[words[i] % nbanks];
		if (c > worst) worst = c;
	}
	return worst;
}

void memop_build(MemOp *op, const StepTrace *tr, const CoalesceCfg *cc, int store, int load,
                 int atomic)
{
	op->store = (uint8_t)store;
	op->load = (uint8_t)load;
	op->atomic = (uint8_t)atomic;
	op->long_lat = 0;
	op->cache = MOC_DEFAULT;
	op->smem_waves = op->cc_waves = 0;
	op->nline = op->ncline = 0;
	op->lmask = 0;
	op->dsmem = 0;
	uint32_t smask = 0, cmask = 0;
	uint64_t cwords[32];
	uint16_t ncw = 0;
	LineSet hs;
	hs.used = 0;
	for (uint32_t mm = tr->mem_lanes; mm; mm &= mm - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(mm);
		uint64_t a = tr->addr[l];
		switch (tr->space[l]) {
		case XS_SHARED:
			smask |= 1u << l;
			op->dsmem |= a >= (1ull << 24);      /* shared::cluster: CLUSTER_RANK_SHIFT */
			break;
		case XS_CONST: case XS_KPARAM: {
			uint64_t b = (tr->space[l] == XS_CONST ? MEM_CONST_WIN : MEM_PARAM_WIN) + a;
			cmask |= 1u << l;
			add_line(cwords, &ncw, 32, b >> 2);
			add_line(op->cline, &op->ncline, 32, b >> cc->line_shift);
			break;
		}
		case XS_LOCAL: case XS_FRAME: {
			uint64_t w = (cc->warp_gid * cc->local_words + a / 4) * 32 + l;
			uint16_t n0 = op->nline;
			add_bytes(op, &hs, cc, MEM_LOCAL_WIN + w * 4 + a % 4, 4);
			if (op->nline > n0) op->lmask |= 1u << n0;
			op->long_lat = 1;
			break;
		}
		default:
			add_bytes(op, &hs, cc, a, tr->nbytes);
			for (uint32_t r = 0; r < tr->xrows; r++) {      /* a texture fetch's other rows */
				uint64_t x = tr->xaddr[r][l];
				if (x) add_bytes(op, &hs, cc, x, tr->nbytes);
			}
			op->long_lat = 1;
			break;
		}
	}
	if (smask && tr->phase)                /* ldmatrix, stmatrix: one matrix per phase */
		for (uint32_t k = 0; k < 32; k += tr->phase) {
			uint32_t m = smask & (uint32_t)(((1ull << tr->phase) - 1) << k);
			if (m) op->smem_waves += smem_waves(tr->addr, tr->nbytes, m, cc->smem_banks);
		}
	else if (smask) op->smem_waves = smem_waves(tr->addr, tr->nbytes, smask, cc->smem_banks);
	if (cmask) op->cc_waves = ncw;
}

void memop_build_cp(MemOp *op, const StepTrace *tr, const CoalesceCfg *cc, int cache)
{
	op->store = op->atomic = 0;
	op->load = 1;                            /* its reads need MSHRs */
	op->long_lat = tr->cp_src != 0;
	op->cache = (uint8_t)cache;
	op->cc_waves = op->ncline = 0;
	op->nline = 0;
	op->lmask = 0;
	op->dsmem = 0;
	LineSet hs;
	hs.used = 0;
	for (uint32_t mm = tr->cp_src; mm; mm &= mm - 1)
		add_bytes(op, &hs, cc, tr->addr[__builtin_ctz(mm)], tr->nbytes);
	op->smem_waves = tr->mem_lanes ? smem_waves(tr->saddr, tr->nbytes, tr->mem_lanes,
	                                            cc->smem_banks) : 0;
}
