#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_IDENTIFIER places the event id first in the sample body, before ip, whatever other bits are set",
	.ref = "perf_event_open(2), PERF_SAMPLE_IDENTIFIER: \"Places the SAMPLE_ID value in a fixed position in the record, either at the beginning (for sample events) or at the end\" (3.12)",
	.covers = "sample.IDENTIFIER",
	.min_kernel = "3.12",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	uint64_t id = 0, first;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	h = pa_ring_sample(&r, &attr, &s);
	memcpy(&first, h + 1, sizeof(first));
	EXPECT_EQ(first, id);
	EXPECT_EQ(s.identifier, id);
	EXPECT_EQ(s.id, id);
}
