#include "perfabi.h"

#include <sys/wait.h>

/*
 * A child forked while the watchpoint is on var_old holds its own inherited
 * copy of the event. PERF_EVENT_IOC_MODIFY_ATTRIBUTES on our event must move
 * that copy as well: after the modification the child's writes to var_new
 * count and its writes to var_old do not.
 */
static volatile uint64_t var_old __attribute__((aligned(8)));
static volatile uint64_t var_new __attribute__((aligned(8)));

__attribute__((noinline)) static void write_n(volatile uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		*v = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_MODIFY_ATTRIBUTES on an inherited breakpoint also modifies the copies already inherited by children: a child forked before the ioctl that then writes the new address 23 times and the old one 11 times adds exactly 23 to the parent's count",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_MODIFY_ATTRIBUTES (since Linux 4.17); kernel/events/core.c perf_event_modify_attr(): func(child, attr) for each event in child_list; 47f661eca070 \"perf: Apply PERF_EVENT_IOC_MODIFY_ATTRIBUTES to children\" (5.13)",
	.covers = "ioctl.MODIFY_ATTRIBUTES type.BREAKPOINT attr.bp_addr attr.inherit",
	.pmu = "breakpoint",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&var_old, HW_BREAKPOINT_LEN_8);
	int fd, go[2], st;
	char c = 0;
	pid_t pid;

	a.inherit = 1;
	a.disabled = 0;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(pipe(go));
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		/* wait until the parent moved the watchpoint */
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		write_n(&var_new, 23);
		write_n(&var_old, 11);
		_exit(0);
	}
	a.bp_addr = (uint64_t)(uintptr_t)&var_new;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a));
	ASSERT_EQ(write(go[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* we wrote neither variable: the count is the child's alone */
	EXPECT_EQ(pa_read_one(fd), 23);
	close(fd);
}
