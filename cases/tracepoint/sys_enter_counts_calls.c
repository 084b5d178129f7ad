#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a tracepoint event (type TRACEPOINT, config = the id from tracefs) on the own task counts exactly the times the tracepoint is hit: syscalls:sys_enter_getppid counts the getppid() calls",
	.ref = "perf_event_open(2), PERF_TYPE_TRACEPOINT \"...the config value ... can be obtained from under debugfs tracing/events/*/*/id\"",
	.covers = "type.TRACEPOINT attr.config",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));

	pa_expect_getppid_count(&attr, pa_expected_errno(PA_NEED_KERNEL), 11);
}
