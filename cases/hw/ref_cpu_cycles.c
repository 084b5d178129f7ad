#include "perfabi.h"

#include <sys/ioctl.h>

#define K 100000000ULL	/* loop iterations */

/*
 * Reference cycles tick at a fixed rate while the core is not halted,
 * whatever its frequency: Intel's REF_TSC at the TSC rate (or REF_XCLK,
 * 100 MHz, where the fixed counter is missing), AMD's at the P0 rate. So
 * over a busy loop, counted in one group with the task clock (the
 * nanoseconds the group was on the CPU), they come at a rate between
 * 1 MHz and 10 GHz, far from both ends for any real clock (the user-mode
 * share of the task clock, less any time stolen by a hypervisor, is most
 * of it). Compared only when the group had the counters the whole time.
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
	.assertion = "PERF_COUNT_HW_REF_CPU_CYCLES counts reference cycles at a "
		     "fixed rate: over a busy loop, counted in a group with the "
		     "task clock, between 1 per microsecond and 10 per nanosecond "
		     "of it",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_REF_CPU_CYCLES "
	       "\"Total cycles; not affected by CPU frequency scaling\" (since "
	       "Linux 3.3); ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.REF_CPU_CYCLES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = pa_hw_open_member(PERF_COUNT_HW_REF_CPU_CYCLES, -1, PA_HW_GROUP_FMT);
	int clk = task_clock_member(lead);
	uint64_t v[2];

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(lead, v, 2, true);
	pa_diag("%llu reference cycles in %llu ns", (unsigned long long)v[0],
		(unsigned long long)v[1]);
	EXPECT_GE(v[0], v[1] / 1000);
	EXPECT_LE(v[0], 10 * v[1]);
	close(clk);
	close(lead);
}
