#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the PERF_FORMAT_ID value read() returns is the event's id "
		     "that its own samples carry in PERF_SAMPLE_ID and "
		     "PERF_SAMPLE_STREAM_ID (and PERF_EVENT_IOC_ID returns)",
	.ref = "perf_event_open(2), read_format PERF_FORMAT_ID \"a globally unique "
	       "value for this particular event\"; PERF_SAMPLE_STREAM_ID; "
	       "kernel/events/core.c perf_read_one() primary_event_id(), "
	       "__perf_event_header__init_id() stream_id = event->id",
	.covers = "read_format.ID sample.STREAM_ID sample.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr other = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[3] = { 0 }, id = 0;
	struct pa_sample s;
	struct pa_ring r;
	int fd, fo;

	/* another event first: the id is not simply the first one handed out */
	fo = ASSERT_OPEN(&other, 0, -1, -1, 0);
	attr.sample_type = PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID;
	attr.read_format = PERF_FORMAT_ID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[1], id);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.stream_id, b[1]);
	EXPECT_EQ(s.id, b[1]);
	pa_ring_unmap(&r);
	close(fd);
	close(fo);
}
