/* test_calendar.c -- the busy-interval calendar of src/mem/calendar.h:
 * first free gap at or after arrival, merging, and the full-list fallback. */
#include "mem/calendar.h"
#include "unit.h"

TEST(calendar_first_gap_after_arrival)
{
	Calendar c = {0};
	CHECK_EQ(cal_book(&c, 10, 1, 0), 10);
	CHECK_EQ(cal_book(&c, 10, 1, 0), 11);           /* same cycle: the next one */
	CHECK_EQ(cal_book(&c, 30, 1, 0), 30);           /* booked earlier, arrives later */
	CHECK_EQ(cal_book(&c, 5, 1, 0), 5);             /* arrives earlier: not behind 30 */
	CHECK_EQ(cal_book(&c, 29, 2, 0), 31);           /* [29,31) overlaps 30: after it */
	CHECK_EQ(cal_book(&c, 12, 4, 0), 12);           /* the gap [12,29) is long enough */
	CHECK_EQ(cal_book(&c, 27, 2, 0), 27);           /* [27,29) fits exactly */
	CHECK_EQ(cal_book(&c, 26, 2, 0), 33);           /* [16,27) free but too late for 26+2 */
}

TEST(calendar_merges_adjacent_intervals)
{
	Calendar c = {0};
	for (int i = 0; i < 100; i++) CHECK_EQ(cal_book(&c, 0, 1, 0), i);   /* a queue */
	CHECK_EQ(c.n, 1);
	CHECK_EQ(c.s[0], 0);
	CHECK_EQ(c.e[0], 100);
	CHECK_EQ(cal_book(&c, 200, 10, 0), 200);
	CHECK_EQ(cal_book(&c, 100, 100, 0), 100);       /* fills the gap: one interval again */
	CHECK_EQ(c.n, 1);
	CHECK_EQ(c.e[0], 210);
}

TEST(calendar_full_goes_after_the_last)
{
	Calendar c = {0};
	for (int i = 0; i < CAL_MAX; i++) CHECK_EQ(cal_book(&c, 10 * i, 1, 0), 10 * i);
	CHECK_EQ(c.n, CAL_MAX);
	/* nothing is over yet (past = 0) and there is no room for a new gap:
	 * a request at 2 goes after the last (a saturated FIFO) */
	CHECK_EQ(cal_book(&c, 2, 1, 0), 10 * (CAL_MAX - 1) + 1);
	/* once time has passed them, the old intervals are dropped */
	CHECK_EQ(cal_book(&c, 1000, 1, 500), 1000);
	CHECK_EQ(c.n, 1);
	CHECK_EQ(cal_book(&c, 2, 1, 1), 2);
}
