/*
 * test_schedule.c -- the pressure-reducing scheduler (src/analysis/schedule.c).
 *
 * A sad-like block (two words unpacked into eight bytes before a chain of
 * sad that consumes them, as nvcc writes workloads/sad) must be reordered
 * to a lower peak and fewer allocated registers, with its loads, store and
 * terminator in place.  A block already at its least pressure keeps nvcc's
 * order.  Then a property over every PTX function of the repository
 * (tests/ptx, tests/sem, workloads): the schedule is a permutation of
 * each block's instructions in which every instruction sees, for each
 * register it reads or writes, the same number of earlier writes of it
 * as before (so every read-after-write, write-after-read and
 * write-after-write dependence, guards included, holds); ordered
 * instructions (memory, warp, barrier, call, anything with op flags) keep
 * their relative order and never move later; control transfers, pseudo
 * instructions and labels stay where they were; the peak never rises.
 */
#include "unit.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/pass.h"
#include "analysis/schedule.h"
#include "base/base.h"
#include "base/config.h"
#include "ptx/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

static const char *const K_SAD = HDR
	".visible .entry sadish(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<16>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	ld.global.u32 %r1, [%rd2];\n"
	"	ld.global.u32 %r2, [%rd2+4];\n"
	"	bfe.u32 %r3, %r1, 0, 8;\n"
	"	bfe.u32 %r4, %r1, 8, 8;\n"
	"	bfe.u32 %r5, %r1, 16, 8;\n"
	"	bfe.u32 %r6, %r1, 24, 8;\n"
	"	bfe.u32 %r7, %r2, 0, 8;\n"
	"	bfe.u32 %r8, %r2, 8, 8;\n"
	"	bfe.u32 %r9, %r2, 16, 8;\n"
	"	bfe.u32 %r10, %r2, 24, 8;\n"
	"	sad.u32 %r11, %r3, %r7, 0;\n"
	"	sad.u32 %r12, %r4, %r8, %r11;\n"
	"	sad.u32 %r13, %r5, %r9, %r12;\n"
	"	sad.u32 %r14, %r6, %r10, %r13;\n"
	"	st.global.u32 [%rd2], %r14;\n"
	"	ret;\n"
	"}\n";

static const char *const K_CHAIN = HDR
	".visible .entry chain(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	ld.global.u32 %r1, [%rd1];\n"
	"	add.s32 %r2, %r1, 1;\n"
	"	mul.lo.s32 %r3, %r2, %r2;\n"
	"	st.global.u32 [%rd1], %r3;\n"
	"	ret;\n"
	"}\n";

static int32_t regs_with(const char *ptx, const char *sched)
{
	Module *m = ptx_parse(ptx, strlen(ptx), "test.ptx");
	CHECK(m != NULL);
	if (!m) return -1;
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "compiler.schedule", sched), RF_OK);
	CHECK_EQ(pass_run(m, &c), RF_OK);
	int32_t n = m->funcs[0].regs_per_thread;
	ir_free(m);
	return n;
}

static const char *mnemonic(const Func *f, int32_t i)
{
	return op_info[f->ins[i].op].name;
}

TEST(schedule_sad_block)
{
	Module *m = ptx_parse(K_SAD, strlen(K_SAD), "test.ptx");
	CHECK(m != NULL);
	if (!m) return;
	Func *f = &m->funcs[0];
	SchedStats st;
	schedule_func(f, SCHED_PRESSURE, 7, &st);
	/* nvcc's order: rd2 (2 slots) and 8 bytes live before the first sad;
	   interleaved, each byte pair is consumed as it is made */
	CHECK_EQ(st.peak_before, 10);
	CHECK(st.peak_after < st.peak_before);
	CHECK_EQ(st.peak_after, 7);
	CHECK_EQ(st.reordered, 1);
	CHECK(st.moved > 0);
	/* loads, store and ret in place; the first sad right after its bytes */
	CHECK_STR(mnemonic(f, 0), "ld");
	CHECK_STR(mnemonic(f, 1), "cvta");
	CHECK_STR(mnemonic(f, 2), "ld");
	CHECK_STR(mnemonic(f, 3), "ld");
	CHECK_STR(mnemonic(f, 16), "st");
	CHECK_STR(mnemonic(f, 17), "ret");
	int32_t first_sad = -1;
	for (int32_t i = 0; i < f->nins && first_sad < 0; i++)
		if (f->ins[i].op == OP_SAD) first_sad = i;
	CHECK_EQ(first_sad, 6);
	ir_free(m);
	/* fewer registers allocated: 10 in nvcc's order, 7 scheduled; 0 and 1,
	   the key's values before it had names, still mean none and pressure */
	CHECK_EQ(regs_with(K_SAD, "none"), 10);
	CHECK_EQ(regs_with(K_SAD, "pressure"), 7);
	CHECK_EQ(regs_with(K_SAD, "0"), 10);
	CHECK_EQ(regs_with(K_SAD, "1"), 7);
}

TEST(schedule_keeps_low_pressure_order)
{
	Module *m = ptx_parse(K_CHAIN, strlen(K_CHAIN), "test.ptx");
	CHECK(m != NULL);
	if (!m) return;
	Module *o = ptx_parse(K_CHAIN, strlen(K_CHAIN), "test.ptx");
	SchedStats st;
	schedule_func(&m->funcs[0], SCHED_PRESSURE, 7, &st);
	CHECK_EQ(st.reordered, 0);
	CHECK_EQ(st.moved, 0);
	CHECK_EQ(st.peak_after, st.peak_before);
	char why[256];
	CHECK(ir_equal(m, o, why, sizeof why));
	ir_free(m);
	ir_free(o);
}

/* ---- the corpus property ---------------------------------------------- */

static int corpus_funcs, corpus_moved, corpus_bad;

static int ordered(const Ins *in)
{
	return op_info[in->op].flags || op_info[in->op].unit == UNIT_SYNC ||
	       op_info[in->op].unit == UNIT_BRANCH || op_info[in->op].unit == UNIT_NONE ||
	       op_info[in->op].unit == UNIT_LDST || op_info[in->op].unit == UNIT_TENSOR ||
	       (in->mods & MOD_CC) || in->op == OP_ADDC || in->op == OP_SUBC ||
	       in->op == OP_MADC;
}

static int fixed(const Ins *in)
{
	return (op_info[in->op].flags & (OPF_BRANCH | OPF_RET | OPF_EXIT | OPF_PSEUDO |
	                                 OPF_RFOP)) != 0;
}

static uint64_t key_of(const Ins *in)
{
	return (uint64_t)in->line << 32 | in->col;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const uint64_t *)a)[0], y = ((const uint64_t *)b)[0];
	return x < y ? -1 : x > y;
}

static void fail(const char *path, const Func *f, const char *what, int32_t i)
{
	if (corpus_bad++ < 10)
		unit_fail(__FILE__, __LINE__, "%s: function with %d instructions: %s at %d", path,
		          f->nins, what, i);
}

/* perm[new] = old index, matched by source position; 0 if not a permutation */
static int match(const Func *a, const Func *b, int32_t *perm)
{
	uint64_t *k = xmalloc(sizeof(uint64_t) * 2 * ((size_t)a->nins + 1));
	for (int32_t i = 0; i < a->nins; i++) k[2 * i] = key_of(&a->ins[i]), k[2 * i + 1] = i;
	qsort(k, (size_t)a->nins, 2 * sizeof(uint64_t), cmp_key);
	int ok = 1;
	for (int32_t i = 1; i < a->nins; i++) ok &= k[2 * i] != k[2 * i - 2];
	for (int32_t j = 0; ok && j < b->nins; j++) {
		uint64_t want[2] = {key_of(&b->ins[j]), 0};
		uint64_t *hit = bsearch(want, k, (size_t)a->nins, 2 * sizeof(uint64_t), cmp_key);
		ok = hit && !memcmp(&a->ins[hit[1]], &b->ins[j], sizeof(Ins));
		if (ok) perm[j] = (int32_t)hit[1];
	}
	free(k);
	return ok;
}

/* each instruction's count of earlier writes, per register it touches */
static int32_t *write_counts(const Func *f, int32_t *seen)
{
	int32_t buf[256], n = 0;
	for (int32_t i = 0; i < f->nins; i++)
		n += live_uses(f, &f->ins[i], buf, 256) + live_defs(f, &f->ins[i], buf, 256);
	int32_t *out = xmalloc(sizeof(int32_t) * ((size_t)n + 1)), at = 0;
	memset(seen, 0, sizeof(int32_t) * ((size_t)f->nreg + 1));
	for (int32_t p = 0; p < f->nins; p++) {
		const Ins *in = &f->ins[p];
		int u = live_uses(f, in, buf, 256);
		for (int q = 0; q < u; q++) out[at++] = seen[buf[q]];
		int d = live_defs(f, in, buf, 256);
		for (int q = 0; q < d; q++) out[at++] = seen[buf[q]];
		for (int q = 0; q < d; q++) seen[buf[q]]++;
	}
	return out;
}

static void check_func(const Func *a, const Func *b, const char *path)
{
	corpus_funcs++;
	int32_t *perm = xmalloc(sizeof(int32_t) * ((size_t)a->nins + 1));
	int32_t *seen = xmalloc(sizeof(int32_t) * ((size_t)a->nreg + 1));
	if (a->nins != b->nins || !match(a, b, perm)) {
		fail(path, a, "not a permutation", 0);
		goto out;
	}
	Cfg *c = cfg_build(a);
	int32_t last_ord = -1, moved = 0;
	for (int32_t j = 0; j < b->nins; j++) {
		int32_t i = perm[j];
		moved += i != j;
		if (c->block_of[i] != c->block_of[j]) fail(path, a, "left its block", i);
		if (fixed(&a->ins[i]) && i != j) fail(path, a, "control or pseudo moved", i);
		if (ordered(&a->ins[i])) {
			if (i < last_ord) fail(path, a, "ordered instructions swapped", i);
			if (j > i) fail(path, a, "ordered instruction delayed", i);
			last_ord = i;
		}
	}
	corpus_moved += moved > 0;
	/* the same reads and writes see the same earlier writes */
	int32_t *wa = write_counts(a, seen);
	int32_t buf[256], at = 0;
	memset(seen, 0, sizeof(int32_t) * ((size_t)a->nreg + 1));
	int32_t *start = xmalloc(sizeof(int32_t) * ((size_t)a->nins + 1));
	for (int32_t i = 0; i < a->nins; i++) {
		start[i] = at;
		at += live_uses(a, &a->ins[i], buf, 256) + live_defs(a, &a->ins[i], buf, 256);
	}
	for (int32_t j = 0; j < b->nins; j++) {
		const Ins *in = &b->ins[j];
		int32_t i = perm[j], q = start[i];
		int u = live_uses(b, in, buf, 256);
		for (int k = 0; k < u; k++)
			if (seen[buf[k]] != wa[q++]) fail(path, a, "read sees other writes", i);
		int d = live_defs(b, in, buf, 256);
		for (int k = 0; k < d; k++)
			if (seen[buf[k]] != wa[q++]) fail(path, a, "write reordered", i);
		for (int k = 0; k < d; k++) seen[buf[k]]++;
	}
	for (int32_t k = 0; k < a->nlabel; k++)
		if (a->labels[k].ins != b->labels[k].ins) fail(path, a, "label moved", k);
	cfg_free(c);
	free(wa), free(start);
out:
	free(perm), free(seen);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx") || strstr(path, "/bad/"))
		return 0;
	char *text = read_file(path, FILE_PTX, &n);
	Module *a = text ? ptx_parse(text, n, path) : NULL;
	Module *b = a ? ptx_parse(text, n, path) : NULL;
	free(text);
	if (!b) {                /* the parser's tests report files it rejects */
		ir_free(a);
		return 0;
	}
	for (int32_t i = 0; i < b->nfunc; i++) {
		Func *f = &b->funcs[i];
		if (!f->has_body || (f->attr & ATTR_PROTO)) continue;
		SchedStats st;
		schedule_func(f, SCHED_PRESSURE, 7, &st);
		if (st.peak_after > st.peak_before) fail(path, f, "peak rose", st.peak_after);
		check_func(&a->funcs[i], f, path);
	}
	char *printed = ptx_print_str(b, NULL);
	Module *back = printed ? ptx_parse(printed, strlen(printed), path) : NULL;
	if (!back) fail(path, &b->funcs[0], "scheduled module does not print as PTX", 0);
	ir_free(back), free(printed), ir_free(a), ir_free(b);
	return 0;
}

TEST(schedule_corpus_legal)
{
	corpus_funcs = corpus_moved = corpus_bad = 0;
	nftw("tests/ptx", visit, 16, 0);
	nftw("tests/sem", visit, 16, 0);
	nftw("workloads", visit, 16, 0);
	CHECK(corpus_funcs > 100);
	CHECK(corpus_moved > 10);
	CHECK_EQ(corpus_bad, 0);
	printf("schedule_corpus_legal: %d functions, %d reordered\n", corpus_funcs, corpus_moved);
}
