#include "perfabi.h"

/*
 * The overflow that uses up the refresh count disables the event through
 * irq_work (perf_event_disable_inatomic()): on x86 at once, elsewhere
 * possibly only at the next tick, and a fault before then would still
 * count. So each phase touches exactly as many pages as overflows are
 * allowed, then spends CPU time (the irq_work has run) before touching more
 * pages to see that the event stays disabled.
 */
static void settle(void)
{
	pa_work_cpu_ms(20);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(n) on a sampling event enables it for n overflows, after which the event disables itself; another REFRESH re-arms it",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"the event is disabled after the given number of overflows\"",
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

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	pa_touch_pages(3);
	settle();
	EXPECT_EQ(pa_read_one(fd), 3);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 3);	/* stays disabled */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	pa_touch_pages(2);
	settle();
	EXPECT_EQ(pa_read_one(fd), 5);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 5);
	close(fd);
}
