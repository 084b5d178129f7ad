#include "perfabi.h"

#include <sys/ioctl.h>

#define K 100000000ULL	/* loop iterations */

/*
 * Each of the K iterations of the loop decrements the counter the next
 * one depends on: no core runs two dependent integer operations in one
 * cycle, so the loop takes at least K cycles; K/2 is asserted, room for
 * the PMU's imprecision that still rules out a counter of another clock
 * (a 100 MHz bus clock counts some 30 times less). And no core clocks above
 * 10 GHz: counted in one group with the task clock (the nanoseconds the
 * group was on the CPU), the cycles are at most 10 per nanosecond. Counted
 * in user space only; the bounds are compared only when the group had the
 * counters the whole time.
 */

/* A task-clock member of the hardware group: the nanoseconds the group
 * was on the CPU. */
static int task_clock_member(int lead)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);

	a.disabled = 0;
	a.read_format = PA_HW_GROUP_FMT;
	return ASSERT_OPEN(&a, 0, -1, lead, PERF_FLAG_FD_CLOEXEC);
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_CPU_CYCLES counts CPU cycles: a dependent loop "
		     "of 100M iterations takes at least 100M cycles (50M asserted), and at most 10 "
		     "per nanosecond of the task clock counted in the same group "
		     "(no CPU clocks above 10 GHz)",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_CPU_CYCLES "
	       "\"Total cycles. Be wary of what happens during CPU frequency "
	       "scaling\"; ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.CPU_CYCLES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = pa_hw_open_member(PERF_COUNT_HW_CPU_CYCLES, -1, PA_HW_GROUP_FMT);
	int clk = task_clock_member(lead);
	uint64_t v[2];

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(lead, v, 2, true);
	pa_diag("%llu cycles in %llu ns over %llu iterations", (unsigned long long)v[0],
		(unsigned long long)v[1], (unsigned long long)K);
	EXPECT_GE(v[0], K / 2);
	EXPECT_LE(v[0], 10 * v[1]);
	close(clk);
	close(lead);
}
