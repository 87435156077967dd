/*
 * test_rf_regmutex.c -- the RegMutex hardware model's arithmetic and its
 * bitmask allocation (src/timing/rf/rf_regmutex.c), by hand.
 *
 * The paper's worked example (regmutex.md III-A2) on the Fermi defaults:
 * 24 registers split |Bs| 18 + |Es| 6, CTAs of 8 warps.  Without RegMutex
 * 24 x 32 = 768 registers per warp, 6144 per CTA: 5 CTAs (40 warps).  With
 * it, 18 x 32 = 576 per warp, 4608 per CTA: 7 by registers, 6 by threads
 * (1536 / 256), so 6 CTAs = 48 warps; the pool is 32768 - 6 x 4608 = 5120
 * registers = 26 sections of 6 x 32 -- the paper's "26 sections".  Then
 * find-first-zero hands out sections 0..25 to the first 26 acquiring warps,
 * the 27th is refused, and a release lets it take the freed section.
 */
#include "base/config.h"
#include "timing/rf/rf.h"
#include "unit.h"

static TIns pseudo(int p)
{
	TIns t = {0};
	t.unit = TU_NONE;
	t.pseudo = (uint8_t)p;
	return t;
}

TEST(rf_regmutex_paper_example_pool_and_ffz)
{
	Config c;
	config_defaults(&c);
	TProg tp = {0};
	tp.rm_bs = 18;
	tp.rm_es = 6;
	TStats st = {0};
	const RfModel *rm = rf_models[RF_regmutex];
	RfSm sm = {.cfg = &c, .nsched = 2, .prog = &tp, .regs_per_thread = 24, .warps_per_cta = 8};
	/* by registers at 24: 5 CTAs; other limits (threads): 6 */
	CHECK_EQ(rm->max_ctas(&sm, 5, 6), 6);
	sm.nwarps = 48;
	sm.st = &st;
	void *m = rm->init(&sm);
	CHECK_EQ(st.rm_sections, 26);
	CHECK_EQ(st.rm_warps, 48);
	CHECK_EQ(st.rm_warps_base, 40);
	CHECK_EQ(st.rm_warp_slots, 48);
	for (int k = 0; k < 6; k++) rm->cta_launch(m, k, 8 * k, 8);
	TIns acq = pseudo(TP_ACQUIRE), rel = pseudo(TP_RELEASE);
	for (int w = 0; w < 26; w++) {
		CHECK(rm->can_issue(m, 10, w, &acq) == 1);
		rm->issue(m, 10, w, &acq);
	}
	CHECK(rm->can_issue(m, 10, 26, &acq) == RF_WAIT_WARPS);
	CHECK(rm->can_issue(m, 11, 26, &acq) == RF_WAIT_WARPS);
	CHECK(rm->can_issue(m, 11, 3, &acq) == 1);  /* holding: no effect */
	rm->issue(m, 12, 7, &rel);
	CHECK(rm->can_issue(m, 15, 26, &acq) == 1);
	rm->issue(m, 15, 26, &acq);
	CHECK_EQ(st.rm_acquires, 27);
	CHECK_EQ(st.rm_acquires_first, 26);
	CHECK_EQ(st.rm_acquire_wait_cycles, 5);      /* refused at 10, granted at 15 */
	CHECK_EQ(st.rm_releases, 1);
	/* a release while not holding has no effect; the CTA leaving frees the rest */
	rm->issue(m, 16, 7, &rel);
	CHECK(rm->can_issue(m, 16, 27, &acq) == RF_WAIT_WARPS);
	rm->cta_exit(m, 0);                          /* warps 0..7: 7 of them hold */
	CHECK_EQ(st.rm_exit_holding, 7);
	CHECK(rm->can_issue(m, 17, 27, &acq) == 1);
	rm->fini(m);
}

TEST(rf_regmutex_no_extended_set_is_the_baseline)
{
	Config c;
	config_defaults(&c);
	TProg tp = {0};
	RfSm sm = {.cfg = &c, .nsched = 2, .prog = &tp, .regs_per_thread = 24, .warps_per_cta = 8};
	const RfModel *rm = rf_models[RF_regmutex];
	CHECK_EQ(rm->max_ctas(&sm, 5, 6), 5);
	CHECK_EQ(rm->max_ctas(&sm, 7, 6), 6);
}

TEST(rf_regmutex_paired_occupancy)
{
	Config c;
	config_defaults(&c);
	c.regmutex_paired = 1;
	TProg tp = {0};
	tp.rm_bs = 18;
	tp.rm_es = 6;
	TStats st = {0};
	RfSm sm = {.cfg = &c, .nsched = 2, .prog = &tp, .regs_per_thread = 24, .warps_per_cta = 8};
	const RfModel *rm = rf_models[RF_regmutex];
	/* a pair holds 2 x 18 + 6 = 42 registers: 21 per warp, 672 -> 704 with the
	   64-register unit, 5632 per CTA: 5 CTAs */
	CHECK_EQ(rm->max_ctas(&sm, 5, 6), 5);
	sm.nwarps = 40;
	sm.st = &st;
	void *m = rm->init(&sm);
	CHECK_EQ(st.rm_sections, 20);
	TIns acq = pseudo(TP_ACQUIRE);
	CHECK(rm->can_issue(m, 1, 4, &acq) == 1);
	rm->issue(m, 1, 4, &acq);
	CHECK(rm->can_issue(m, 1, 5, &acq) == RF_WAIT_WARPS);  /* its pair partner */
	CHECK(rm->can_issue(m, 1, 6, &acq) == 1);  /* another pair */
	rm->fini(m);
}
