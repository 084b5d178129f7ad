#include "perfabi.h"

/*
 * A disabled enable_on_exec event attached to a child: the 200 pages the
 * child touches before its exec are not counted; the fixture it execs
 * touches 64 pages, which are. A few extra faults of the fixture's start-up
 * are allowed; the pre-exec 200 must not be there.
 */
PERFABI_CASE(
	.assertion = "attr.enable_on_exec: a disabled event on a task counts nothing before the task calls execve (200 pages touched: not counted) and starts counting at the exec (the new image's 64 touched pages are counted)",
	.ref = "perf_event_open(2), enable_on_exec: \"If this bit is set, a counter is automatically enabled after a call to exec(2)\"; kernel/events/core.c perf_event_enable_on_exec()",
	.covers = "attr.enable_on_exec attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd;
	pid_t pid = pa_exec_child_start(&go, 200, "touch_pages", "64");
	uint64_t v;

	attr.enable_on_exec = 1;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	pa_diag("%llu page faults counted", (unsigned long long)v);
	EXPECT_GE(v, 64);
	EXPECT_LT(v, 64 + 100);
	close(fd);
}
