#include "perfabi.h"

/*
 * attr.size == 0 is read as PERF_ATTR_SIZE_VER0 (64): the "ABI compatibility
 * quirk" of perf_copy_attr(). The attr ends 64 bytes before a PROT_NONE
 * page, so success also shows that only 64 bytes were read.
 */
PERFABI_CASE(
	.assertion = "attr.size == 0 is accepted and treated as PERF_ATTR_SIZE_VER0 (64 bytes), and the event then counts exactly 64 page faults for 64 touched pages",
	.ref = "kernel/events/core.c perf_copy_attr(): \"ABI compatibility quirk: if (!size) size = PERF_ATTR_SIZE_VER0\"",
	.covers = "attr.size size.VER0 arg.attr",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(PERF_ATTR_SIZE_VER0);
	int fd;

	memcpy(attr, &base, PERF_ATTR_SIZE_VER0);
	attr->size = 0;
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	/* the attr was read as written: the event counts this task's page
	 * faults, 64 for 64 fresh pages (exact once the path has run once) */
	pa_count_over(fd, pa_work_pages, 1);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
