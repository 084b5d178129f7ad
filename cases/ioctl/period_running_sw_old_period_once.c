#include "perfabi.h"

#define OLD	16
#define NEW	4

PERFABI_CASE(
	.assertion = "Finding: after PERF_EVENT_IOC_PERIOD on a running software sampling event, the first event overflows at once, the next overflow comes at the P-th event after the ioctl, P being the old period (as if the old period restarted at the ioctl), and only from then on every new period",
	.ref = "kernel/events/core.c __perf_event_period() sets period_left to 0; perf_swevent_set_period() computes the next period from hw.last_period, which still holds the old period once; perf_event_open(2) PERF_EVENT_IOC_PERIOD says only that the new period takes effect immediately",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, OLD);
	uint64_t warm, period = NEW, rec;
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
	pa_touch_pages(5);			/* 5 of OLD */
	EXPECT_EQ(pa_ring_head(&ring), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	pa_touch_pages(1);			/* event 1 after the ioctl */
	EXPECT_EQ(pa_ring_head(&ring), 1 * rec);
	pa_touch_pages(OLD - 2);		/* events 2 .. OLD-1 */
	EXPECT_EQ(pa_ring_head(&ring), 1 * rec);
	pa_touch_pages(1);			/* event OLD */
	EXPECT_EQ(pa_ring_head(&ring), 2 * rec);
	pa_touch_pages(NEW - 1);
	EXPECT_EQ(pa_ring_head(&ring), 2 * rec);
	pa_touch_pages(1);			/* event OLD + NEW */
	EXPECT_EQ(pa_ring_head(&ring), 3 * rec);
	pa_touch_pages(NEW);			/* event OLD + 2 NEW */
	EXPECT_EQ(pa_ring_head(&ring), 4 * rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 5 + OLD + 2 * NEW);
	EXPECT_EQ(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 4);
	pa_ring_unmap(&ring);
	close(fd);
}
