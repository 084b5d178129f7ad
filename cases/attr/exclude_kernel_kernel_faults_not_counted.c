#include "perfabi.h"

/*
 * Page faults the kernel takes while copying into fresh user pages (read()
 * of /dev/zero) are kernel-mode events: an exclude_kernel event does not
 * count them, though it counts faults made by touching pages from user
 * space.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_kernel: page faults taken in kernel mode (read() of /dev/zero into fresh pages) are not counted, user-space faults are",
	.ref = "perf_event_open(2), exclude_kernel: \"the count excludes events that happen in kernel space\"; kernel/events/core.c perf_exclude_event()",
	.covers = "attr.exclude_kernel",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before, mid;
	int fd;

	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	before = pa_read_one(fd);
	pa_kernel_faults(64);
	mid = pa_read_one(fd);
	pa_touch_pages(64);
	EXPECT_LT(mid - before, 16);
	EXPECT_GE(pa_read_one(fd) - mid, 64);
	EXPECT_LE(pa_read_one(fd) - mid, 80);	/* 64 and a few around them */
	close(fd);
}
