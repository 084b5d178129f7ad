#include "perfabi.h"

#include <time.h>

static int open_clock(int use_clockid, int clockid)
{
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);

	a.use_clockid = use_clockid;
	a.clockid = clockid;
	return ASSERT_OPEN(&a, 0, -1, -1, 0);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT into the ring of an event with a different clock fails with EINVAL: use_clockid CLOCK_MONOTONIC into the default perf clock, CLOCK_MONOTONIC_RAW into CLOCK_MONOTONIC; the same clockid is accepted",
	.ref = "kernel/events/core.c perf_event_set_output(): \"Mixing clocks in the same buffer is trouble you don't need\" (output_event->clock != event->clock -> -EINVAL); perf_event_open(2) use_clockid (since Linux 4.1)",
	.covers = "ioctl.SET_OUTPUT attr.use_clockid attr.clockid errno.EINVAL",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	struct pa_ring ring;
	int dflt, mono, raw, mono2;

	dflt = open_clock(0, 0);
	mono = open_clock(1, CLOCK_MONOTONIC);
	raw = open_clock(1, CLOCK_MONOTONIC_RAW);
	mono2 = open_clock(1, CLOCK_MONOTONIC);

	pa_ring_map(&ring, dflt, 1);
	EXPECT_ERRNO(ioctl(mono, PERF_EVENT_IOC_SET_OUTPUT, dflt), EINVAL);
	pa_ring_unmap(&ring);

	pa_ring_map(&ring, mono, 1);
	EXPECT_ERRNO(ioctl(dflt, PERF_EVENT_IOC_SET_OUTPUT, mono), EINVAL);
	EXPECT_ERRNO(ioctl(raw, PERF_EVENT_IOC_SET_OUTPUT, mono), EINVAL);
	EXPECT_OK(ioctl(mono2, PERF_EVENT_IOC_SET_OUTPUT, mono));
	pa_ring_unmap(&ring);

	close(mono2);
	close(raw);
	close(mono);
	close(dflt);
}
