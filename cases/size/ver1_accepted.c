#include "perfabi.h"

/*
 * attr.size = PERF_ATTR_SIZE_VER1: the layout that ends after config2/bp_len (breakpoints, 2.6.33).
 * The attr is placed so that its last byte is the last byte of a mapping
 * (the next page is PROT_NONE): an accepted open also shows that the
 * kernel read no byte beyond the declared size.
 */
PERFABI_CASE(
	.assertion = "attr.size = PERF_ATTR_SIZE_VER1 is accepted, the kernel reads no byte beyond the declared size, and the event then counts exactly 64 page faults for 64 touched pages",
	.ref = "perf_event_open(2), size: \"the size of the perf_event_attr structure for forward/backward compatibility\"; kernel/events/core.c perf_copy_attr(), copy_struct_from_user()",
	.covers = "attr.size size.VER1 arg.attr",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(PERF_ATTR_SIZE_VER1);
	int fd;

	memcpy(attr, &base, PERF_ATTR_SIZE_VER1);
	attr->size = PERF_ATTR_SIZE_VER1;
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	/* the attr was read as written: the event counts this task's page
	 * faults, 64 for 64 fresh pages (exact once the path has run once) */
	pa_count_over(fd, pa_work_pages, 1);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
