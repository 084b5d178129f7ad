#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a sampling event that ran part of a period and was then disabled sets the period used from the next enable: the next overflow comes after exactly the new number of events, and every new-period events after that; the unused rest of the old period is dropped",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period() (period_left = 0) and perf_swevent_add() (a new period from hw.sample_period at enable)",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t warm, period = 5, rec;
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

	/* 10 events into a period of 1000, then stopped */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(10);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_ring_head(&ring), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	EXPECT_EQ(pa_ring_head(&ring), 0);
	pa_touch_pages(1);			/* the 5th */
	EXPECT_EQ(pa_ring_head(&ring), 1 * rec);
	pa_touch_pages(4);
	EXPECT_EQ(pa_ring_head(&ring), 1 * rec);
	pa_touch_pages(1);			/* the 10th */
	EXPECT_EQ(pa_ring_head(&ring), 2 * rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 20);
	EXPECT_EQ(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 2);
	pa_ring_unmap(&ring);
	close(fd);
}
