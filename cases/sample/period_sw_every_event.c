#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "Finding: a fixed-period software event (page-faults) that asks for PERF_SAMPLE_PERIOD is sampled on every event, with period = the event's increment (1), not every sample_period events as the man page says; the periods add up to the count",
	.ref = "perf_event_open(2), sample_period: \"A sampling event is one that generates an overflow notification every N events\"; kernel/events/core.c perf_swevent_event(): \"if ((event->attr.sample_type & PERF_SAMPLE_PERIOD) && !event->attr.freq) { data->period = nr; return perf_swevent_overflow(event, 1, ...)\"",
	.covers = "sample.PERIOD attr.sample_period sw.PAGE_FAULTS",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	uint64_t sum = 0, count;
	int fd, n = 0;

	attr.sample_type = PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);
	pa_touch_pages(1);		/* warm the code path before counting */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.period, 1u);
		sum += s.period;
		n++;
	}
	EXPECT_GE(count, 8u);
	EXPECT_EQ(sum, count);
	EXPECT_EQ((uint64_t)n, count);
}
