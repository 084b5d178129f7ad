#include "perfabi.h"

/*
 * The kernel writes attr.size only on E2BIG. A successful open with a size
 * other than the kernel's own (here VER0, which every kernel accepts and
 * which is smaller than every target's struct) leaves the caller's value.
 */
PERFABI_CASE(
	.assertion = "a successful open leaves attr.size as the caller set it; the kernel's size is written back only on E2BIG",
	.ref = "perf_event_open(2), E2BIG: \"When E2BIG is returned, the perf_event_attr size field is overwritten\" (only then); kernel/events/core.c perf_copy_attr() err_size",
	.covers = "attr.size size.VER0",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.size = PERF_ATTR_SIZE_VER0;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(attr.size, PERF_ATTR_SIZE_VER0);
}
