/*
 * prefetch.c -- LTRF's PREFETCH insertion (paper ltrf-asplos18 §3.2, §5:
 * "insert PREFETCH bit-vectors at the start of each register-interval").
 *
 * On allocated code, after register allocation (and regshare's renaming,
 * so the bit-vectors name the final registers), the configured partition
 * (interval.c or strand.c) is formed and its invariants checked -- a
 * violation is a compiler bug and stops rfsim.  Then one `rfsim.prefetch
 * K;` goes in front of the first instruction of every subgraph's entry
 * piece: K indexes Func.rsets, whose entry K is that subgraph's working
 * set.  Subgraphs are numbered in entry order, so K is also the subgraph
 * id `rfsim analyze` reports.  Where a subgraph starts mid-block (a cut),
 * the directive lands mid-block: that is the block split, and no label is
 * needed because only the fall-through reaches it.  At a branch target,
 * the label moves onto the directive (edit.c), so every edge into the
 * subgraph runs it.
 *
 * Contract with the timing model.  Edges back to a subgraph's entry from
 * inside it (a loop wholly inside a register-interval) also run the
 * directive, naming the set the warp already holds; the paper's single
 * PREFETCH per loop (§3.3) is a PREFETCH whose registers are all valid in
 * the working-set bit-vector of the warp control block (§4.1), so nothing
 * is fetched and the warp does not wait.  For strands the same edge is a
 * strand boundary, and a model may choose to count it as a new strand.
 * The functional core treats the directive as a no-op (exec.c), so program
 * output is unchanged.
 *
 * Code size (§3.2, §4.3), per function (a kernel's report adds its
 * callees): the "bit" encoding adds one bit to every instruction plus a
 * bit-vector per PREFETCH; the "instruction" encoding adds an instruction
 * plus a bit-vector per PREFETCH.  Overheads
 * are relative to the instructions before insertion, at ltrf.ins_bits per
 * instruction and ltrf.vector_bits per bit-vector.
 */
#include "analysis/interval.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/config.h"
#include "base/models.h"
#include "base/base.h"
#include "base/json.h"

int ltrf_partition_of(const Config *cfg)
{
	int k = (int)cfg->ltrf_partition;
	if (k == PART_NONE && (model_passes((int)cfg->rf_model) & MP_INTERVALS))
		k = PART_INTERVAL;
	return k;
}

static int32_t entry_of(const Part *p, const int32_t *piece_at, int32_t ins)
{
	int32_t u = piece_at[ins];
	return u >= 0 && p->iv[p->pc[u].ivl].entry == u ? p->pc[u].ivl : -1;
}

Part *prefetch_insert(Module *m, int32_t fi, int kind, int32_t n)
{
	Func *f = &m->funcs[fi];
	if (kind == PART_NONE || !f->phys || !f->has_body || f->nins == 0) return NULL;
	Cfg *c = cfg_build(f);
	Part *p = kind == PART_STRAND ? strand_form(f, c, n) : ivl_form(f, c, n);
	cfg_free(c);
	IvlWhy w;
	const char *why = ivl_check(f, p, &w);
	if (!why && kind == PART_STRAND) why = strand_check(f, p, &w);
	if (why) die("ltrf: %s: %s", ir_str(m, m->syms[f->sym].name), why);
	f->nrset = p->nivl;
	f->rsets = arena_alloc(m->arena, sizeof(RegSet) * ((size_t)p->nivl + 1));
	for (int32_t v = 0; v < p->nivl; v++) f->rsets[v] = p->iv[v].regs;
	int32_t *piece_at = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	for (int32_t i = 0; i < f->nins; i++) piece_at[i] = -1;
	for (int32_t u = 0; u < p->npiece; u++) piece_at[p->pc[u].first] = u;
	Edit e;
	int32_t nold = f->nins;
	edit_begin(&e, m, f);
	for (int32_t i = 0; i < nold; i++) {
		const Ins *in = &f->ins[i];
		int32_t v = entry_of(p, piece_at, i);
		edit_mark(&e, i);
		if (v >= 0) {
			Ins pf;
			memset(&pf, 0, sizeof pf);
			pf.op = OP_RF_PREFETCH;
			pf.guard = -1;
			pf.ns = 1;
			pf.o[0].kind = OPK_IMM;
			pf.o[0].imm = v;
			pf.line = in->line, pf.col = in->col;
			edit_emit(&e, &pf);
		}
		edit_keep(&e, in);
	}
	edit_end(&e);
	free(piece_at);
	return p;
}

void prefetch_code_size(const Part *p, const Func *f, int32_t ins_bits, int32_t vec_bits,
                        CodeSize *cs)
{
	int64_t ins = 0, pf = p ? p->nivl : 0;
	for (int32_t i = 0; i < f->nins; i++)
		ins += !(op_info[f->ins[i].op].flags & (OPF_PSEUDO | OPF_RFOP));
	cs->ins += ins;
	cs->prefetches += pf;
	cs->bits_base += ins * ins_bits;
	cs->bits_bit += pf ? ins + pf * vec_bits : 0;
	cs->bits_ins += pf * ((int64_t)ins_bits + vec_bits);
}

/* ---- rfsim analyze ------------------------------------------------------------ */

static double pct(int64_t extra, int64_t base)
{
	return base ? 100.0 * (double)extra / (double)base : 0;
}

void prefetch_print(const Part *p, const CodeSize *cs, FILE *out)
{
	fprintf(out, "  %-14s %s N=%d: %d subgraphs (pass 1: %d), %d cuts, %d wide; "
	        "PREFETCH code +%.2f%% (bit), +%.2f%% (instruction)\n", "ltrf",
	        p->kind == PART_STRAND ? "strands" : "intervals", p->n, p->nivl, p->nivl_pass1,
	        p->cuts, p->wide, pct(cs->bits_bit, cs->bits_base),
	        pct(cs->bits_ins, cs->bits_base));
}

void prefetch_json_cfg(Json *j, const Part *p)
{
	json_int(j, "blocks", p->npiece);
	json_arr_begin(j, "cfg");
	for (int32_t u = 0; u < p->npiece; u++) {
		json_arr_begin(j, NULL);
		for (int32_t k = 0; k < p->pc[u].nsucc; k++) json_int(j, NULL, p->pc[u].succ[k]);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "exits");
	for (int32_t u = 0; u < p->npiece; u++)
		if (p->pc[u].exits) json_int(j, NULL, u);
	json_arr_end(j);
}

static void json_size(Json *j, const char *key, int64_t extra, int64_t base)
{
	json_obj_begin(j, key);
	json_int(j, "extra_bits", extra);
	json_num(j, "overhead", base ? (double)extra / (double)base : 0);
	json_obj_end(j);
}

void prefetch_json(Json *j, const Part *p, const CodeSize *cs, int encoding)
{
	json_obj_begin(j, "ltrf");
	json_str(j, "partition", p->kind == PART_STRAND ? "strand" : "interval");
	json_int(j, "regs_per_interval", p->n);
	json_int(j, "subgraphs", p->nivl);
	json_int(j, "pass1_subgraphs", p->nivl_pass1);
	json_int(j, "pass2_rounds", p->rounds);
	json_int(j, "cuts", p->cuts);
	json_int(j, "wide", p->wide);
	json_arr_begin(j, "block_ins");
	for (int32_t u = 0; u < p->npiece; u++) {
		json_arr_begin(j, NULL);
		json_int(j, NULL, p->pc[u].first), json_int(j, NULL, p->pc[u].last);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_obj_begin(j, "code_size");
	json_int(j, "instructions", cs->ins);
	json_int(j, "prefetches", cs->prefetches);
	json_int(j, "base_bits", cs->bits_base);
	json_size(j, "bit", cs->bits_bit, cs->bits_base);
	json_size(j, "instruction", cs->bits_ins, cs->bits_base);
	json_str(j, "encoding", encoding ? "instruction" : "bit");
	json_obj_end(j);
	json_obj_end(j);
	IvlLists mem = ivl_member_lists(p), pr = ivl_pred_lists(p);
	json_arr_begin(j, "intervals");
	for (int32_t v = 0; v < p->nivl; v++) {
		json_obj_begin(j, NULL);
		json_int(j, "id", v);
		json_int(j, "entry_block", p->iv[v].entry);
		json_arr_begin(j, "blocks");
		for (int32_t k = mem.start[v]; k < mem.start[v + 1]; k++) json_int(j, NULL, mem.item[k]);
		json_arr_end(j);
		json_arr_begin(j, "regs");
		for (int r = 0; r < 256; r++)
			if (regset_has(&p->iv[v].regs, r)) json_int(j, NULL, r);
		json_arr_end(j);
		json_arr_begin(j, "preds");
		for (int32_t k = pr.start[v]; k < pr.start[v + 1]; k++) json_int(j, NULL, pr.item[k]);
		json_arr_end(j);
		json_bool(j, "call", p->iv[v].call);
		json_obj_end(j);
	}
	json_arr_end(j);
	ivl_lists_free(&mem);
	ivl_lists_free(&pr);
}
