#include "perfabi.h"

/* see refresh_adds_to_remaining.c: the disable after the last allowed
 * overflow runs from irq_work, by the next tick at the latest */
static void settle(void)
{
	pa_work_cpu_ms(20);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH on a group leader sets the overflow limit of the leader only (old 2.6 kernels refreshed all siblings): a sampling sibling overflows on every event without disabling itself, and the whole group stops when the leader's limit is reached",
	.ref = "perf_event_open(2), BUGS: \"In older Linux 2.6 versions, refreshing an event group leader refreshed all siblings ... unsupported\"; kernel/events/core.c _perf_event_refresh(): event_limit of the event the fd refers to, then _perf_event_enable() of it",
	.covers = "ioctl.REFRESH arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	/* leader: an overflow every 4 faults; sibling: one every fault */
	struct perf_event_attr la = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 4);
	struct perf_event_attr sa = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t warm;
	int leader, sib;

	la.disabled = 1;
	sa.disabled = 0;	/* enabled: runs whenever its leader does */
	leader = ASSERT_OPEN(&la, 0, -1, -1, 0);
	sib = ASSERT_OPEN(&sa, 0, -1, leader, 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	settle();
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(leader), 0);
	ASSERT_EQ(pa_read_one(sib), 0);

	/* one leader overflow allowed: 4 faults. Had the sibling been
	 * refreshed with 1 too, it would stop after its first fault. */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_REFRESH, 1));
	pa_touch_pages(4);
	settle();
	EXPECT_EQ(pa_read_one(leader), 4);
	EXPECT_EQ(pa_read_one(sib), 4);
	/* the leader disabled itself, and with it the group */
	pa_touch_pages(8);
	EXPECT_EQ(pa_read_one(leader), 4);
	EXPECT_EQ(pa_read_one(sib), 4);
	close(sib);
	close(leader);
}
