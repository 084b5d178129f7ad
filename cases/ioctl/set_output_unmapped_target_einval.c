#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT into an event that has no ring buffer mapped fails with EINVAL; once the target is mapped the same redirection is accepted",
	.ref = "kernel/events/core.c perf_event_set_output(): ring_buffer_get(output_event) == NULL -> -EINVAL; perf_event_open(2) PERF_EVENT_IOC_SET_OUTPUT",
	.covers = "ioctl.SET_OUTPUT errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct pa_ring ring;
	int t, s;

	t = ASSERT_OPEN(&a, 0, -1, -1, 0);
	s = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(s, PERF_EVENT_IOC_SET_OUTPUT, t), EINVAL);
	pa_ring_map(&ring, t, 1);
	EXPECT_OK(ioctl(s, PERF_EVENT_IOC_SET_OUTPUT, t));
	pa_ring_unmap(&ring);
	close(s);
	close(t);
}
