#include "perfabi.h"

/*
 * Page faults the kernel takes while copying into fresh user pages (read()
 * of /dev/zero) are kernel-mode events: an exclude_kernel event does not
 * count them, though it counts faults made by touching pages from user
 * space. Both workloads run once first (their code and stack faulted in),
 * so 64 pages read into from /dev/zero add exactly 0 and 64 pages touched
 * add exactly 64: one fault per fresh page (each page's first store maps
 * it, do_user_addr_fault() -> perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS)).
 */
PERFABI_CASE(
	.assertion = "attr.exclude_kernel: page faults taken in kernel mode (read() of /dev/zero into 64 fresh pages) are not counted (exactly 0), user-space faults are (64 touched pages: exactly 64)",
	.ref = "perf_event_open(2), exclude_kernel: \"the count excludes events that happen in kernel space\"; kernel/events/core.c perf_exclude_event()",
	.covers = "attr.exclude_kernel",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before, mid;
	int fd;

	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_kernel_faults(1);	/* fault in the code of both workloads */
	pa_touch_pages(1);
	before = pa_read_one(fd);
	pa_kernel_faults(64);
	mid = pa_read_one(fd);
	pa_touch_pages(64);
	EXPECT_EQ(mid - before, 0);
	EXPECT_EQ(pa_read_one(fd) - mid, 64);
	close(fd);
}
