#include "perfabi.h"

PERFABI_CASE(
	.assertion = "self-monitoring of user space (exclude_kernel, exclude_hv) is allowed at every upstream paranoid level; Debian's level >= 3 refuses it with EACCES without CAP_SYS_ADMIN (CAP_PERFMON is not enough)",
	.ref = "perf_event_open(2), perf_event_paranoid \"2 Allow only user-space measurements\"; Debian patch \"security,perf: Allow further restriction of perf_event_open\"",
	.covers = "sysctl.perf_event_paranoid cap.CAP_SYS_ADMIN errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));

	if (fd >= 0) {
		/* it counts: 16 fresh pages exactly, the path run once before
		 * so that each page's first store is its only fault */
		pa_count_over(fd, pa_work_pages, 1);
		EXPECT_EQ(pa_count_over(fd, pa_work_pages, 16), 16);
		close(fd);
	}
}
