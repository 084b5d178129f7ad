#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT on an event that has its own ring buffer mapped fails with EINVAL, both redirecting it and with -1; once its mapping is gone the same redirection is accepted",
	.ref = "kernel/events/core.c perf_event_set_output(): \"Can't redirect output if we've got an active mmap()\" (event->mmap_count -> -EINVAL)",
	.covers = "ioctl.SET_OUTPUT errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct pa_ring target, own;
	int t, s;

	t = ASSERT_OPEN(&a, 0, -1, -1, 0);
	s = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&target, t, 1);
	pa_ring_map(&own, s, 1);
	EXPECT_ERRNO(ioctl(s, PERF_EVENT_IOC_SET_OUTPUT, t), EINVAL);
	EXPECT_ERRNO(ioctl(s, PERF_EVENT_IOC_SET_OUTPUT, -1L), EINVAL);
	pa_ring_unmap(&own);
	EXPECT_OK(ioctl(s, PERF_EVENT_IOC_SET_OUTPUT, t));
	pa_ring_unmap(&target);
	close(s);
	close(t);
}
