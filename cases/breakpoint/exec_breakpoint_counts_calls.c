#include "perfabi.h"

static volatile int calls;

__attribute__((noinline, used)) static void pa_bp_target(void)
{
	calls++;
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "a HW_BREAKPOINT_X breakpoint (bp_len sizeof(long)) on a function's first instruction counts each call",
	.ref = "perf_event_open(2), bp_type HW_BREAKPOINT_X; bp_len: \"for execution breakpoints, set this to sizeof(long)\"",
	.covers = "type.BREAKPOINT attr.bp_type attr.bp_addr attr.bp_len",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	void (*volatile fn)(void) = pa_bp_target;
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, (const void *)pa_bp_target, sizeof(long));
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 100; i++)
		fn();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 100);
	EXPECT_EQ(calls, 100);
	close(fd);
}
