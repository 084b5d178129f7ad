#include "perfabi.h"

#include <limits.h>
#include <time.h>

#ifndef CLOCK_BOOTTIME_ALARM
#define CLOCK_BOOTTIME_ALARM 9
#endif

/*
 * perf_event_set_clock() takes exactly five clocks. Every other id
 * clock_gettime() knows is refused: the CPU-time clocks (static ids 2 and
 * 3, and the negative ids that name another process's or thread's CPU
 * clock, or a dynamic POSIX clock), the coarse and alarm clocks, and ids
 * past the last clock. A software event (an NMI-free PMU) takes all five.
 */
PERFABI_CASE(
	.assertion = "use_clockid accepts only CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_TAI (each opens on a software event); CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_REALTIME_ALARM, CLOCK_BOOTTIME_ALARM, 10, 16, INT_MAX, -1, -6 and INT_MIN fail with EINVAL",
	.ref = "perf_event_open(2), clockid: \"CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, and CLOCK_TAI currently supported\"; kernel/events/core.c perf_event_set_clock(): default -> -EINVAL (since 4.1, 34f439278cef)",
	.covers = "attr.clockid attr.use_clockid errno.EINVAL",
	.min_kernel = "4.1",	/* use_clockid; before, a reserved bit */
	.probe = pa_probe_self_perf,
) {
	static const int ok[] = {
		CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME,
		CLOCK_BOOTTIME, CLOCK_TAI,
	};
	/* -1: CPU clock of pid 0's process (CPUCLOCK_PROF); -6: thread
	 * CPUCLOCK_SCHED; INT_MIN: a dynamic (fd) clock id */
	static const int bad[] = {
		CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
		CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE,
		CLOCK_REALTIME_ALARM, CLOCK_BOOTTIME_ALARM, 10, 16, INT_MAX,
		-1, -6, INT_MIN,
	};
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	size_t i;

	attr.use_clockid = 1;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		attr.clockid = ok[i];
		close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		attr.clockid = bad[i];
		pa_diag("clockid %d", bad[i]);
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	}
}
