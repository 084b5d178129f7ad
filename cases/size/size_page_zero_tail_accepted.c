#include "perfabi.h"

/*
 * A size larger than the kernel's struct, up to the page size, is accepted
 * when every byte the kernel does not know is zero: the attr sits at the
 * start of a zeroed page and declares the whole page.
 */
PERFABI_CASE(
	.assertion = "attr.size = the page size, larger than the kernel's struct, is accepted when all bytes beyond the kernel's struct are zero, and the event then counts exactly 64 page faults for 64 touched pages",
	.ref = "perf_event_open(2), E2BIG: only \"larger than the kernel supports and the extra bytes are not zero\" is refused; include/linux/uaccess.h copy_struct_from_user()",
	.covers = "attr.size arg.attr",
	.probe = pa_probe_self_perf,
) {
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail((size_t)psz);
	int fd;

	memcpy(attr, &base, sizeof(base));
	attr->size = (uint32_t)psz;
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	/* the attr was read as written: the event counts this task's page
	 * faults, 64 for 64 fresh pages (exact once the path has run once) */
	pa_count_over(fd, pa_work_pages, 1);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
