#include "perfabi.h"

/*
 * attr.size need not be a multiple of 8. With 65 the kernel copies exactly
 * 65 bytes (the struct up to config1 plus the low byte of config2) and
 * zero-fills the rest. The attr ends at the end of a mapping, so success
 * also shows the kernel did not round the size up.
 *
 * Behaviour by version: the open-coded copy before 5.4 and
 * copy_struct_from_user() since 5.4 ("perf_event_open: switch to
 * copy_struct_from_user()") both copy exactly `size` bytes and check only
 * size < VER0 and size > PAGE_SIZE, so there is no version split.
 */
PERFABI_CASE(
	.assertion = "attr.size = 65 (not a multiple of 8, within the known range) is accepted, exactly 65 bytes are read, and the event then counts exactly 64 page faults for 64 touched pages",
	.ref = "kernel/events/core.c perf_copy_attr(): only size < PERF_ATTR_SIZE_VER0 or size > PAGE_SIZE is refused; include/linux/uaccess.h copy_struct_from_user()",
	.covers = "attr.size arg.attr",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(65);
	int fd;

	memcpy(attr, &base, 65);
	attr->size = 65;
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	/* the attr was read as written: the event counts this task's page
	 * faults, 64 for 64 fresh pages (exact once the path has run once) */
	pa_count_over(fd, pa_work_pages, 1);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
