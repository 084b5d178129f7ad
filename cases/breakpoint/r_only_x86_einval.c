#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "HW_BREAKPOINT_R alone (a read-only watchpoint) is refused with EINVAL on x86, which has no read-only debug-register mode; arm64 accepts it and counts the reads",
	.ref = "perf_event_open(2), bp_type HW_BREAKPOINT_R \"Count when we read the memory location\"; arch/x86/kernel/hw_breakpoint.c arch_build_bp_info(): only W, W|R, X -> else -EINVAL; arch/arm64/kernel/hw_breakpoint.c arch_build_bp_info(): case HW_BREAKPOINT_R",
	.covers = "type.BREAKPOINT attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_R, (const void *)&target, HW_BREAKPOINT_LEN_8);

#if defined(__x86_64__) || defined(__i386__)
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	/* the same watchpoint as W|R is accepted: it is the type that is refused */
	a.bp_type = HW_BREAKPOINT_RW;
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
#elif defined(__aarch64__)
	uint64_t sink = 0;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 20; i++)
		target = (uint64_t)i;	/* writes: not counted */
	for (int i = 0; i < 30; i++)
		sink += target;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 30);
	pa_diag("sink %llu", (unsigned long long)sink);
	close(fd);
#else
	pa_skip("whether HW_BREAKPOINT_R alone is supported is known here only for x86 (no) and arm64 (yes)");
#endif
}
