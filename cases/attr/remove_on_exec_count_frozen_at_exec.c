#include "perfabi.h"

/*
 * An enabled remove_on_exec event attached to a child counts the 64 pages
 * the child touches before exec; at the exec the event is removed from the
 * task, so the 200 pages the exec'd fixture touches are not counted. The fd
 * stays valid and reads the frozen value.
 */
PERFABI_CASE(
	.assertion = "attr.remove_on_exec: the event counts its task until execve and is removed from it at the exec: the 64 pages touched before exec are counted, the 200 touched by the new image are not, and the fd still reads the frozen count",
	.ref = "include/uapi/linux/perf_event.h remove_on_exec \"event is removed from task on exec\" (5.13, 2e498d0a74e5); kernel/events/core.c perf_event_remove_on_exec()",
	.covers = "attr.remove_on_exec",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd;
	pid_t pid = pa_exec_child_start(&go, 64, "touch_pages", "200");
	uint64_t v;

	attr.disabled = 0;
	attr.remove_on_exec = 1;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	pa_diag("%llu page faults counted", (unsigned long long)v);
	EXPECT_GE(v, 64);
	EXPECT_LT(v, 64 + 100);
	EXPECT_EQ(pa_read_one(fd), v);
	close(fd);
}
