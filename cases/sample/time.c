#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_TIME with use_clockid and clockid CLOCK_MONOTONIC timestamps a sample on that clock: the one sample of one page fault lies between clock_gettime() taken before and after it",
	.ref = "perf_event_open(2), use_clockid/clockid: \"the clockid to use for time fields\"; PERF_RECORD_SAMPLE time \"If PERF_SAMPLE_TIME is enabled, then a 64-bit timestamp is included\"",
	.covers = "sample.TIME attr.use_clockid attr.clockid",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	uint64_t t0, t1;
	int fd;

	attr.sample_type = PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	t0 = pa_clock_ns(CLOCK_MONOTONIC);				/* fault in the vDSO data first */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));	/* a no-op, warms up */
	pa_ring_count(&r, PERF_RECORD_SAMPLE);	/* start from an empty ring */
	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_touch_pages(1);
	t1 = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_sample(&r, &attr, &s);
	EXPECT_GE(s.time, t0);
	EXPECT_LE(s.time, t1);
	/* one fresh page, one fault: that sample is the only one */
	EXPECT_EQ(pa_ring_count(&r, PERF_RECORD_SAMPLE), 0);
}
