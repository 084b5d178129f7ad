#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT between events on different CPUs fails with EINVAL, as does redirecting an event to itself",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_OUTPUT: \"The file descriptors must all be on the same CPU\"; kernel/events/core.c perf_event_set_output()",
	.covers = "ioctl.SET_OUTPUT arg.cpu",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct pa_ring ring;
	int f0, f1, f1b;

	f0 = ASSERT_OPEN(&a, 0, 0, -1, 0);
	f1 = ASSERT_OPEN(&a, 0, 1, -1, 0);
	f1b = ASSERT_OPEN(&a, 0, 1, -1, 0);
	pa_ring_map(&ring, f0, 1);
	EXPECT_ERRNO(ioctl(f1, PERF_EVENT_IOC_SET_OUTPUT, f0), EINVAL);
	EXPECT_ERRNO(ioctl(f0, PERF_EVENT_IOC_SET_OUTPUT, f0), EINVAL);
	/* same CPU: accepted (f1b into f1's buffer once f1 has one) */
	pa_ring_unmap(&ring);
	pa_ring_map(&ring, f1, 1);
	EXPECT_OK(ioctl(f1b, PERF_EVENT_IOC_SET_OUTPUT, f1));
	pa_ring_unmap(&ring);
	close(f1b);
	close(f1);
	close(f0);
}
