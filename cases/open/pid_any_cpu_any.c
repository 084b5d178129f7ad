#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid == -1 and cpu == -1 is invalid: an event must name a task or a CPU",
	.ref = "perf_event_open(2), Arguments: \"pid == -1 and cpu == -1 - This setting is invalid and will return an error\"",
	.covers = "arg.pid arg.cpu errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);

	EXPECT_OPEN_FAIL(&attr, -1, -1, -1, 0, EINVAL);
}
