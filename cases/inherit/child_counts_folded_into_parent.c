#include "perfabi.h"
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "with inherit set, a forked child's counts are added to the parent's event: after the child exits and is reaped, the parent's value includes the child's page faults",
	.ref = "perf_event_open(2), inherit: \"The inherit bit specifies that this counter should count events of child tasks as well as the task specified\"",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before, after;
	int fd, st = 0;
	pid_t pid;

	a.inherit = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	EXPECT_LT(before, 64);		/* nothing big happened yet */
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(512);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	after = pa_read_one(fd);
	EXPECT_GE(after, before + 512);
	close(fd);
}
