#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid > 0 and cpu == -1 measures that process on any CPU: the "
		     "child's faults are counted (one per fresh page), the caller's are not",
	.ref = "perf_event_open(2), Arguments: \"pid > 0 and cpu == -1\"",
	.covers = "arg.pid arg.cpu",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct pa_puppet child;
	uint64_t n;
	int fd;

	pa_puppet_start(&child);
	/* its copy-on-write and code faults first: then only fresh pages fault */
	pa_puppet_run(&child, pa_work_pages, 64);
	fd = ASSERT_OPEN(&attr, child.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&child, pa_work_pages, 64);
	pa_touch_pages(1024);	/* the caller's own: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 64);	/* the child's 64, none of the caller's 1024 */
	pa_puppet_stop(&child);
}
