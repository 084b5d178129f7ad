#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a tracepoint id that names no tracepoint fails with EINVAL",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_init(): no ftrace event with that id -> ret = -EINVAL",
	.covers = "type.TRACEPOINT attr.config errno.EINVAL",
	.pmu = "tracepoint",	/* ENOENT without CONFIG_EVENT_TRACING's PMU */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_tp_attr(0x7ffffff0);

	attr.exclude_kernel = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
