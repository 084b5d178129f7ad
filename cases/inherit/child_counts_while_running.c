#include "perfabi.h"
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "with inherit set, reading the parent's event while an inherited child still runs already includes the child's counts",
	.ref = "perf_event_open(2), inherit; kernel/events/core.c perf_event_read_value() sums event->child_list",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd, p[2], q[2];
	uint64_t before;
	char c = 0;
	pid_t pid;

	a.inherit = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(pipe(p));
	ASSERT_OK(pipe(q));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(512);
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(read(p[0], &c, 1), 1);
	EXPECT_GE(pa_read_one(fd), before + 512);	/* child alive */
	ASSERT_EQ(write(q[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, NULL, 0), pid);
	close(fd);
}
