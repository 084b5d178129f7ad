#include "perfabi.h"

/*
 * attr.config of a tracepoint event is the 64-bit trace event id. Before
 * 0022cedd4a7d perf_trace_init() held it in an int, so id | 1 << 32 (or
 * any bits above 31) matched the tracepoint `id`. With the full u64
 * compared no trace event has such an id: perf_trace_init() finds none
 * and fails with EINVAL. The plain id opens (as a control) where the
 * permission rules let this identity open it.
 */
PERFABI_CASE(
	.assertion = "a tracepoint attr.config is compared as 64 bits: a valid tracepoint id with bit 32 or bit 63 also set names no tracepoint and fails with EINVAL",
	.ref = "\"perf/trace: Properly use u64 to hold event_id\" 0022cedd4a7d (v3.13); kernel/trace/trace_event_perf.c perf_trace_init()",
	.covers = "type.TRACEPOINT attr.config errno.EINVAL",
	.fix = { .commit = "0022cedd4a7d", .subject = "perf/trace: Properly use u64 to hold event_id", .release = "3.13" },
	.probe = pa_probe_self_perf,
) {
	long id = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	const uint64_t high[] = { 1ULL << 32, 1ULL << 63, 0xffffffff00000000ULL };
	struct perf_event_attr attr;
	int fd;

	pa_diag("sys_enter_getppid id %ld", id);
	for (size_t i = 0; i < sizeof(high) / sizeof(high[0]); i++) {
		attr = pa_tp_attr((uint64_t)id | high[i]);
		attr.exclude_kernel = 1;
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	}

	/* control: the id itself names the tracepoint */
	attr = pa_tp_attr((uint64_t)id);
	attr.exclude_kernel = 1;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
