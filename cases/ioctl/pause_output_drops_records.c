#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT with a non-zero argument stops records reaching the ring buffer (data_head does not move) while the event goes on counting; 0 resumes writing: every later overflow is a sample in the ring",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7)",
	.covers = "ioctl.PAUSE_OUTPUT",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
) {
	/* period 1: every page fault is a sample */
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring ring;
	int fd;

	a.sample_type = PERF_SAMPLE_IP;
	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 8);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&ring), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_ring_head(&ring), 0);
	EXPECT_EQ(pa_read_one(fd), 8);	/* counting went on */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 16);
	/* the 8 of the resumed part (the PERF_RECORD_LOST for the paused
	 * part is ioctl/pause_output_lost_record's) */
	EXPECT_EQ(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 8);
	pa_ring_unmap(&ring);
	close(fd);
}
