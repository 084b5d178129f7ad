#include "perfabi.h"

/* Only bit 63 is refused: the largest period below it is a valid period. */
PERFABI_CASE(
	.assertion = "without freq, sample_period = 2^63 - 1 (the largest value with bit 63 clear) is accepted",
	.ref = "kernel/events/core.c perf_event_open(): only sample_period & (1ULL << 63) is refused",
	.covers = "attr.sample_period",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, (1ULL << 63) - 1);
	int fd;

	attr.disabled = 1;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
