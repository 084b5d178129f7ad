#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.config is 64 bits wide: a software config with bits set "
		     "above bit 31 (e.g. 1<<32 | PERF_COUNT_SW_CPU_CLOCK) names no "
		     "event and fails with ENOENT; it is not truncated to 32 bits",
	.ref = "perf_event_open(2), ENOENT; CVE-2013-2094, fix 8176cced706b "
	       "\"perf: Treat attr.config as u64 in perf_swevent_init()\"",
	.fix = { .commit = "8176cced706b", .subject = "perf: Treat attr.config as u64 in perf_swevent_init()", .release = "3.9", .cve = "CVE-2013-2094" },
	.alone = true,
	.covers = "type.SOFTWARE attr.config errno.ENOENT",
	.probe = pa_probe_self_perf,
) {
	static const uint64_t configs[] = {
		1ULL << 32 | PERF_COUNT_SW_CPU_CLOCK,
		1ULL << 32 | PERF_COUNT_SW_TASK_CLOCK,
		1ULL << 32 | PERF_COUNT_SW_PAGE_FAULTS,
		1ULL << 63 | PERF_COUNT_SW_CONTEXT_SWITCHES,
		0xffffffffULL,	/* -1 as the old int event_id */
	};

	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		struct perf_event_attr attr = pa_sw_attr(configs[i]);

		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	}
}
