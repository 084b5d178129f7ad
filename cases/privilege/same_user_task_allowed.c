#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attaching to another task of the same user (a forked child) is allowed without privilege and counts what that task does (32 fresh pages: exactly 32)",
	.ref = "perf_event_open(2), Arguments \"pid > 0 ... measures the specified process/thread\"; kernel/events/core.c perf_check_permission() (ptrace_may_access, same uid)",
	.covers = "arg.pid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_puppet p;
	uint64_t n;
	int fd;

	pa_puppet_start(&p);
	fd = EXPECT_OPEN_RESULT(&attr, p.pid, -1, -1, 0, want);
	if (fd < 0) {
		pa_puppet_stop(&p);
		return;
	}
	/* the same command once first: the child's code and stack on its path
	 * are then mapped, and each fresh page's first store is its only
	 * fault */
	pa_puppet_run(&p, pa_work_pages, 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&p, pa_work_pages, 32);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_read_one(fd);
	EXPECT_EQ(n, 32);
	close(fd);
	pa_puppet_stop(&p);
}
