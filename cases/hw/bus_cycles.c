#include "perfabi.h"

#include <sys/ioctl.h>

#define K 100000000ULL	/* loop iterations */

/*
 * Bus cycles tick at the bus (reference) clock while the core is not
 * halted (Intel 0x013c: CPU_CLK_UNHALTED.REF_XCLK, 100 MHz; Arm
 * BUS_CYCLES: the clock of the core's bus interface, the core clock or an
 * integer fraction of it). The core clock is a multiple of that clock, so
 * in one group with PERF_COUNT_HW_CPU_CYCLES the bus cycles are at most
 * the cycles (+ 5 % + 10000 for counters not started in the same cycle);
 * and no bus clock runs below 1 MHz: at least 1 per microsecond of the
 * task clock counted in the same group. Compared only when the group had
 * the counters the whole time.
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
	.assertion = "PERF_COUNT_HW_BUS_CYCLES counts bus cycles, which can be "
		     "different from total cycles but not more: over a busy loop, "
		     "counted in a group with PERF_COUNT_HW_CPU_CYCLES and the task "
		     "clock, at most the cycles (+ 5 % + 10000) and at least 1 per "
		     "microsecond of the task clock",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BUS_CYCLES "
	       "\"Bus cycles, which can be different from total cycles\"; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.BUS_CYCLES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = pa_hw_open_member(PERF_COUNT_HW_CPU_CYCLES, -1, PA_HW_GROUP_FMT);
	int bus = pa_hw_open_member(PERF_COUNT_HW_BUS_CYCLES, lead, PA_HW_GROUP_FMT);
	int clk = task_clock_member(lead);
	uint64_t v[3];

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(lead, v, 3, true);
	pa_diag("%llu cycles, %llu bus cycles in %llu ns", (unsigned long long)v[0],
		(unsigned long long)v[1], (unsigned long long)v[2]);
	EXPECT_LE(v[1], v[0] + v[0] / 20 + 10000);
	EXPECT_GE(v[1], v[2] / 1000);
	close(clk);
	close(bus);
	close(lead);
}
