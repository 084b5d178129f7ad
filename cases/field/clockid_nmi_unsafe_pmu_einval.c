#include "perfabi.h"

#include <time.h>

static volatile uint64_t target __attribute__((aligned(8)));

/*
 * Only CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW have NMI-safe readers
 * (ktime_get_*_fast_ns()); REALTIME, BOOTTIME and TAI are taken only on a
 * PMU that says it never overflows in NMI (PERF_PMU_CAP_NO_NMI: the
 * software PMUs). The breakpoint PMU does not say so: on a breakpoint
 * event the three are refused, although the man page lists all five as
 * supported.
 */
PERFABI_CASE(
	.assertion = "use_clockid on a breakpoint event (a PMU without PERF_PMU_CAP_NO_NMI): CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW open; CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_TAI fail with EINVAL",
	.ref = "kernel/events/core.c perf_event_set_clock(): if (!nmi_safe && !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI)) return -EINVAL (since 4.1, 34f439278cef); kernel/events/hw_breakpoint.c perf_breakpoint has no capabilities; perf_event_open(2) clockid lists all five as supported",
	.covers = "attr.clockid attr.use_clockid errno.EINVAL",
	.min_kernel = "4.1",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target,
					      HW_BREAKPOINT_LEN_8);

	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
	a.clockid = CLOCK_MONOTONIC_RAW;
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
	a.clockid = CLOCK_REALTIME;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.clockid = CLOCK_BOOTTIME;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.clockid = CLOCK_TAI;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
}
