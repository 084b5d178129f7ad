#include "perfabi.h"

/*
 * A synchronous SIGTRAP needs a task to signal: a CPU-wide (pid == -1)
 * sigtrap event is refused while the event is allocated, before the
 * CPU-wide permission check, so every identity sees EINVAL.
 */
PERFABI_CASE(
	.assertion = "attr.sigtrap on a CPU-wide event (pid == -1, cpu 0) fails with EINVAL: sigtrap requires a task",
	.ref = "kernel/events/core.c perf_event_alloc(): \"if (attr->sigtrap && !task) ... Requires a task: avoid signalling random tasks\" -> -EINVAL (5.13, 97ba62b27867); perf_event_open(2), EINVAL",
	.covers = "errno.EINVAL attr.sigtrap arg.pid",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.sigtrap = 1;
	attr.remove_on_exec = 1;	/* sigtrap requires it */
	EXPECT_OPEN_FAIL(&attr, -1, 0, -1, 0, EINVAL);
}
