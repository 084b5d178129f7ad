#include "perfabi.h"

/*
 * Only bit 63 is refused: the largest period below it is a valid period.
 * The event then counts as usual (64 page faults for 64 fresh pages, exact
 * once the measured path has run once) and, 2^63 - 1 events being far
 * away, writes no sample.
 */
PERFABI_CASE(
	.assertion = "without freq, sample_period = 2^63 - 1 (the largest value with bit 63 clear) is accepted: the event counts 64 page faults for 64 touched pages and writes no sample",
	.ref = "kernel/events/core.c perf_event_open(): only sample_period & (1ULL << 63) is refused",
	.covers = "attr.sample_period",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, (1ULL << 63) - 1);
	struct pa_ring r;
	int fd;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	pa_count_over(fd, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	EXPECT_EQ(pa_ring_count(&r, PERF_RECORD_SAMPLE), 0);
	pa_ring_unmap(&r);
	close(fd);
}
