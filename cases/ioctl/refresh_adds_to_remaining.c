#include "perfabi.h"

/*
 * The overflow that uses up the refresh count disables the event through
 * irq_work (perf_event_disable_inatomic()). On x86 the self-IPI runs it
 * before the faulting access is retried; where irq_work waits for the next
 * tick, the event stays active a little longer and would count any fault
 * in between. So each phase touches exactly as many pages as overflows are
 * allowed, then spends CPU time (a tick passes, the irq_work has run)
 * before touching more pages to see that the event stopped.
 */
static void settle(void)
{
	pa_work_cpu_ms(20);
}

PERFABI_CASE(
	.assertion = "each PERF_EVENT_IOC_REFRESH adds its argument to the overflow count still remaining: REFRESH 2 then REFRESH 1 before any overflow allow exactly 3 overflows, and REFRESH 2 after one of 2 was used allows 3 more, before the event disables itself",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Subsequent calls of this ioctl add the argument value to the current count\"; kernel/events/core.c _perf_event_refresh(): atomic_add(refresh, &event->event_limit)",
	.covers = "ioctl.REFRESH",
	.probe = pa_probe_self_perf,
) {
	/* sample_period 1: every page fault is an overflow */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t warm;
	int fd;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	settle();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd), 0);

	/* 2 + 1 before any overflow: 3 */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	pa_touch_pages(3);
	settle();
	EXPECT_EQ(pa_read_one(fd), 3);
	pa_touch_pages(8);
	EXPECT_EQ(pa_read_one(fd), 3);	/* disabled after the third */

	/* 2, one used, + 2: 3 more */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	pa_touch_pages(1);
	EXPECT_EQ(pa_read_one(fd), 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	pa_touch_pages(3);
	settle();
	EXPECT_EQ(pa_read_one(fd), 7);
	pa_touch_pages(8);
	EXPECT_EQ(pa_read_one(fd), 7);
	close(fd);
}
