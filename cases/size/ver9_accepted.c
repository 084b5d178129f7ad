#include "perfabi.h"

/*
 * attr.size = PERF_ATTR_SIZE_VER9 (144, adds config4, 6.19). A kernel that
 * knows VER9 copies it as is; an older one (sizeof 128 on 6.1, 136 on 6.3 to
 * 6.18) accepts it because the bytes it does not know (config4) are zero.
 * The attr ends at the end of a mapping, so the open also shows that the
 * kernel read no byte past the declared 144.
 */
PERFABI_CASE(
	.assertion = "attr.size = PERF_ATTR_SIZE_VER9 with config4 zero is accepted by every kernel: known on 6.19+, a zero unknown tail before, and the event then counts exactly 64 page faults for 64 touched pages",
	.ref = "perf_event_open(2), E2BIG: only non-zero bytes beyond the kernel's struct are refused; kernel/events/core.c perf_copy_attr(), copy_struct_from_user()",
	.covers = "attr.size size.VER9 arg.attr",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(PERF_ATTR_SIZE_VER9);
	int fd;

	if (pa_since("6.19", "VER9 (config4) is the kernel's own size"))
		pa_diag("kernel size %u: VER9 is copied as is", pa_kernel_attr_size());
	else
		pa_diag("kernel size %u: bytes %u..143 are an unknown tail, all zero",
			pa_kernel_attr_size(), pa_kernel_attr_size());
	memcpy(attr, &base, PERF_ATTR_SIZE_VER9);
	attr->size = PERF_ATTR_SIZE_VER9;
	attr->config4 = 0;
	fd = ASSERT_OPEN(attr, 0, -1, -1, 0);
	/* the attr was read as written: the event counts this task's page
	 * faults, 64 for 64 fresh pages (exact once the path has run once) */
	pa_count_over(fd, pa_work_pages, 1);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
