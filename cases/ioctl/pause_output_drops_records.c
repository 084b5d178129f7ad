#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT with a non-zero argument stops records reaching the ring buffer (data_head does not move); 0 resumes writing",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7)",
	.covers = "ioctl.PAUSE_OUTPUT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring ring;
	uint64_t head;
	int fd;

	a.sample_type = PERF_SAMPLE_IP;
	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = pa_ring_head(&ring);
	EXPECT_EQ(head, 0);
	EXPECT_GE(pa_read_one(fd), 8);	/* counting went on */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 8);
	pa_ring_unmap(&ring);
	close(fd);
}
