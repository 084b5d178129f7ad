#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_ID puts the event's unique id in the sample: the value PERF_EVENT_IOC_ID returns",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"id: If PERF_SAMPLE_ID is enabled, a 64-bit unique ID is included\"",
	.covers = "sample.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	uint64_t id = 0;
	int fd;

	attr.sample_type = PERF_SAMPLE_ID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.id, id);
}
