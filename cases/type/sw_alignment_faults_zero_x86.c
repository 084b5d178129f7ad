#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_ALIGNMENT_FAULTS opens as a counting event; on x86 no code raises it (arch-specific: x86 fixes unaligned accesses in hardware), so it counts 0",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_ALIGNMENT_FAULTS; arch/x86 has no PERF_COUNT_SW_ALIGNMENT_FAULTS call site",
	.covers = "sw.ALIGNMENT_FAULTS attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_ALIGNMENT_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t n = pa_count_over(fd, pa_work_pages, 64);
#if defined(__x86_64__) || defined(__i386__)
	EXPECT_EQ(n, 0);
#else
	pa_diag("%llu alignment faults (the count is arch-specific off x86)",
		(unsigned long long)n);
#endif
}
