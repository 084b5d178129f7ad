#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a running software sampling event takes effect immediately: the period in progress is cut short and the very next event overflows, where the old period had most of its events still to run (before Linux 3.14 the old period ran to its end first)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD (the new period takes effect immediately since Linux 3.14, 3.7 on ARM); bad7192b842c \"perf: Fix PERF_EVENT_IOC_PERIOD to force-reset the period\": kernel/events/core.c __perf_event_period() stops the event, sets period_left to 0 and restarts it",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t warm, period = 4, rec;
	struct pa_ring ring;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 1);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched. Samples are counted from
	 * data_head, on the control page: the data pages are read only once
	 * the event is disabled. */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&ring), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(10);		/* 10 of the 1000 */
	EXPECT_EQ(pa_ring_head(&ring), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	pa_touch_pages(1);
	EXPECT_EQ(pa_ring_head(&ring), rec);	/* one sample, at once */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 11);
	EXPECT_EQ(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 1);
	pa_ring_unmap(&ring);
	close(fd);
}
