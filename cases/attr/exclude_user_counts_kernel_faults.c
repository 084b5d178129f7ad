#include "perfabi.h"

/*
 * exclude_user with exclude_kernel clear counts the kernel side only. Page
 * faults that the kernel takes while copying into fresh user pages
 * (read() of /dev/zero) happen in kernel mode and are counted; touching
 * pages from user space adds nothing. Both workloads run once first (their
 * code and stack faulted in), so 64 pages touched add exactly 0 and 64
 * pages read into add exactly 64: one kernel-mode fault per fresh page
 * (do_user_addr_fault() -> perf_sw_event(), regs of the kernel's copy),
 * nothing else of the kernel touches user memory not yet mapped.
 * Counting the kernel needs perf_allow_kernel(): where the identity lacks
 * it the open must fail with the documented errno instead.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_user with exclude_kernel clear counts page faults taken in kernel mode (read() into 64 fresh pages: exactly 64) and not those taken by user-space accesses (64 touched pages: exactly 0); where counting the kernel is not allowed the open fails (EACCES)",
	.ref = "perf_event_open(2), exclude_user, exclude_kernel, perf_event_paranoid; kernel/events/core.c perf_exclude_event(), perf_event_open() perf_allow_kernel()",
	.covers = "attr.exclude_user attr.exclude_kernel",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	uint64_t before, mid;
	int fd;

	attr.disabled = 0;
	attr.exclude_user = 1;
	attr.exclude_kernel = 0;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want || fd < 0)
		return;
	pa_touch_pages(1);	/* fault in the code of both workloads */
	pa_kernel_faults(1);
	before = pa_read_one(fd);
	pa_touch_pages(64);
	mid = pa_read_one(fd);
	pa_kernel_faults(64);
	EXPECT_EQ(mid - before, 0);
	EXPECT_EQ(pa_read_one(fd) - mid, 64);
	close(fd);
}
