#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the PERF_FORMAT_LOST value counts the samples that could not be written to the ring buffer: with output paused, every overflow is lost",
	.ref = "perf_event_open(2), read_format PERF_FORMAT_LOST (since Linux 6.0); kernel/events/ring_buffer.c __perf_output_begin(): paused -> lost_samples++",
	.covers = "read_format.LOST ioctl.PAUSE_OUTPUT",
	.min_kernel = "6.0",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring ring;
	uint64_t b[2];
	int fd;

	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PERF_FORMAT_LOST;
	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[0], 16);	/* one fault per page */
	EXPECT_EQ(b[1], b[0]);	/* period 1: one lost sample per event */
	EXPECT_EQ(pa_ring_head(&ring), 0);
	pa_ring_unmap(&ring);
	close(fd);
}
