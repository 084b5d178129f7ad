#include "perfabi.h"

/*
 * Only pid -1 (with a cpu) means "every task": any other negative pid is
 * looked up as a task id like a positive one and no task has it, so the
 * open fails with ESRCH, per task and CPU-wide alike.
 */
PERFABI_CASE(
	.assertion = "pid == -2 is not \"all tasks\" (only -1 is): it names no task and the open fails with ESRCH, with cpu -1 and with cpu 0",
	.ref = "perf_event_open(2), Arguments: \"pid == -1 and cpu >= 0 ... all processes/threads on the specified CPU\"; ESRCH \"the process does not exist\"; kernel/events/core.c perf_event_open(): pid != -1 -> find_lively_task_by_vpid()",
	.covers = "arg.pid errno.ESRCH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);

	EXPECT_OPEN_FAIL(&attr, -2, -1, -1, 0, ESRCH);
	EXPECT_OPEN_FAIL(&attr, -2, 0, -1, 0, ESRCH);
	EXPECT_OPEN_FAIL(&attr, -12345, -1, -1, 0, ESRCH);
}
