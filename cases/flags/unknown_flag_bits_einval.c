#include "perfabi.h"

/*
 * PERF_FLAG_ALL is bits 0..3; each other bit of the unsigned long flags
 * argument (4 .. 63 on 64-bit) must be refused, alone and together with a
 * valid flag, for an otherwise valid open.
 */
PERFABI_CASE(
	.assertion = "a flags bit outside PERF_FLAG_FD_NO_GROUP|FD_OUTPUT|PID_CGROUP|FD_CLOEXEC (every bit from 4 to the top bit of unsigned long) makes perf_event_open() fail with EINVAL",
	.ref = "perf_event_open(2), EINVAL: \"the flags argument ... has an invalid value\"; kernel/events/core.c perf_event_open(): flags & ~PERF_FLAG_ALL -> -EINVAL",
	.covers = "arg.flags errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	const unsigned bits = 8 * sizeof(unsigned long);

	close(ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
	for (unsigned b = 4; b < bits; b++) {
		unsigned long f = 1UL << b;

		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, f, EINVAL);
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, f | PERF_FLAG_FD_CLOEXEC, EINVAL);
	}
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, ~0UL, EINVAL);
}
