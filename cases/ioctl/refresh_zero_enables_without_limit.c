#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH with argument 0 on a fresh sampling event enables it with no overflow limit: it counts every event and never disables itself (the man page calls 0 undefined; the kernel adds 0 to a count of 0, and a count of 0 means no limit)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Using an argument of 0 is considered undefined behavior\", BUGS: \"refreshing with a parameter of 0 enabled infinite refresh\"; kernel/events/core.c _perf_event_refresh() and __perf_event_overflow(): \"if (events && atomic_dec_and_test(&event->event_limit))\"",
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
	pa_work_cpu_ms(20);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 0));
	pa_touch_pages(16);
	/* a disable after any overflow would have been run by now (irq_work:
	 * at once on x86, else by the next tick) and stopped the count */
	pa_work_cpu_ms(20);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 32);
	close(fd);
}
