#include "perfabi.h"
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "without inherit, a forked child's events are not counted by the parent's event",
	.ref = "perf_event_open(2), inherit (clear: only the monitored task counts)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before, after;
	int fd, st = 0;
	pid_t pid;

	a.inherit = 0;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(512);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	after = pa_read_one(fd);
	/* the parent's own copy-on-write faults after fork are a handful */
	EXPECT_LT(after - before, 128);
	close(fd);
}
