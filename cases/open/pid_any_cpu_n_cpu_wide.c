#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid == -1 and cpu >= 0 measures every task on that CPU; it "
		     "needs CAP_PERFMON, CAP_SYS_ADMIN or perf_event_paranoid < 1 "
		     "(else EACCES)",
	.ref = "perf_event_open(2), Arguments: \"pid == -1 and cpu >= 0\"; "
	       "kernel/events/core.c find_get_context() perf_allow_cpu()",
	.alone = true,
	.covers = "arg.pid arg.cpu errno.EACCES",
	.privileged = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int want = pa_expected_errno(PA_NEED_CPU);
	struct pa_puppet child;
	int cpus[1], fd;
	uint64_t n;

	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	fd = EXPECT_OPEN_RESULT(&attr, -1, cpus[0], -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want || fd < 0)
		return;
	/* another task on that CPU is counted too */
	pa_puppet_start(&child);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&child, pa_work_pages, 64);
	pa_touch_pages(64);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_GE(n, 128);
	pa_puppet_stop(&child);
}
