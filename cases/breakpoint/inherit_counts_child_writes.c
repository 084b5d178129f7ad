#include "perfabi.h"

#include <sys/wait.h>

static volatile uint64_t target __attribute__((aligned(8)));

__attribute__((noinline)) static void write_n(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "an inherited write watchpoint (inherit = 1) counts a forked child's writes to its copy of the variable (same address) exactly once, added to the parent's count when the child exits",
	.ref = "perf_event_open(2), inherit \"counts events of descendant tasks as well as the task specified\"; kernel/events/core.c inherit_event(): the child's breakpoint keeps bp_addr",
	.covers = "type.BREAKPOINT attr.inherit attr.bp_addr",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	int fd, status;
	pid_t pid;

	a.inherit = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	write_n(3);
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		write_n(17);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	write_n(5);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 3 + 17 + 5);
	close(fd);
}
