#include "perfabi.h"

PERFABI_CASE(
	.assertion = "syscalls:sys_exit_getppid counts exactly the getppid() returns of the own task, and nothing of other syscalls",
	.ref = "perf_event_open(2), PERF_TYPE_TRACEPOINT",
	.covers = "type.TRACEPOINT",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_exit_getppid"));

	pa_expect_getppid_count(&attr, pa_expected_errno(PA_NEED_KERNEL), 4);
}
