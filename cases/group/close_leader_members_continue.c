#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Closing the leader of a counting group: perf_group_detach() "upgrades
 * the siblings to singleton events"; a member that was on the CPU stays
 * on and counts on without a gap. Each is now a group of one (a
 * PERF_FORMAT_GROUP read of it gives nr = 1 and its own id), and the
 * former members are independent: disabling one (it is now a leader)
 * does not stop the other. This has been the kernel's rule since groups
 * exist (unchanged through 6.1, 6.12 and 6.18): no version gate.
 */
#define BEFORE	8	/* pages touched before the leader is closed */
#define AFTER	16	/* after */
#define LAST	4	/* after the first former member is disabled */

PERFABI_CASE(
	.assertion = "closing the leader of an enabled group leaves its members open and counting, each as a singleton event: a member counts the page faults before and after the close without a gap, reads as a group of one (nr = 1, its own id), and disabling one former member no longer stops the other",
	.ref = "kernel/events/core.c perf_group_detach(): \"If this was a group event with sibling events then upgrade the siblings to singleton events\"; perf_event_open(2), group_fd (a single event is a group with only 1 member)",
	.covers = "arg.group_fd read_format.GROUP read_format.ID ioctl.ID ioctl.DISABLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t g[8] = { 0 }, id;
	int leader, a, b, spare;

	s.disabled = 0;
	s.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	a = ASSERT_OPEN(&s, 0, -1, leader, 0);
	s.read_format = 0;
	s.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	b = ASSERT_OPEN(&s, 0, -1, leader, 0);
	ASSERT_OK(ioctl(a, PERF_EVENT_IOC_ID, &id));

	/* before the close, a's group read is the whole group of three */
	ASSERT_EQ(read(a, g, sizeof(g)), 8 + 3 * 16);
	EXPECT_EQ(g[0], 3);
	EXPECT_EQ(pa_read_one(b), 0);

	/* warm up the measured path (the reads and close() included): the
	 * members still count while they are read and checked below */
	pa_touch_pages(1);
	spare = ASSERT_OK(dup(leader));
	ASSERT_OK(close(spare));
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(BEFORE);
	ASSERT_OK(close(leader));
	pa_touch_pages(AFTER);

	ASSERT_EQ(read(a, g, sizeof(g)), 8 + 16);
	EXPECT_EQ(g[0], 1);			/* nr: a group of one */
	EXPECT_EQ(g[1], BEFORE + AFTER);
	EXPECT_EQ(g[2], id);
	EXPECT_EQ(pa_read_one(b), BEFORE + AFTER);

	ASSERT_OK(ioctl(a, PERF_EVENT_IOC_DISABLE, 0));
	pa_touch_pages(LAST);
	ASSERT_EQ(read(a, g, sizeof(g)), 8 + 16);
	EXPECT_EQ(g[1], BEFORE + AFTER);
	EXPECT_EQ(pa_read_one(b), BEFORE + AFTER + LAST);
	close(a);
	close(b);
}
