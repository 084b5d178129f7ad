#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PERIOD on a running uprobe PMU sampler. The uprobe event
 * counts through perf_swevent_event() as a software event does, so the
 * ioctl has the same effect as on ioctl/period_running_sw_old_period_once
 * and ioctl/period_ioctl_running_watchpoint: __perf_event_period()
 * sets period_left to 0, so the first call after it overflows at once;
 * perf_swevent_set_period() then takes the period from hw.last_period,
 * still the old one, once; from then on every NEW-th call overflows.
 *
 * The uprobe event is scheduled out and in with its task (perf_trace_del()
 * and perf_trace_add()); a sched-in between the ioctl and the first call
 * after it re-arms period_left from the new period (perf_trace_add() ->
 * perf_swevent_set_period() with period_left 0), which takes the overflow
 * at once and the old period with it. Such a try (this thread's switches,
 * getrusage(RUSAGE_THREAD)) says nothing and is run again
 * (pa_period_old_once(), the sequence for every implementation). Later switches
 * change nothing: period_left is then negative, which a sched-in keeps.
 */
#define OLD	8
#define NEW	3

__attribute__((noinline)) void pa_upclk_period_fn(void);
__attribute__((noinline)) void pa_upclk_period_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		pa_upclk_period_fn();
}

PERFABI_CASE(
	.assertion = "after PERF_EVENT_IOC_PERIOD on a running uprobe PMU sampling event (sample_period 8 -> 3, 5 calls into the old period), the first call of the probed function overflows at once, the next overflow comes at the 8th call after the ioctl (the old period, once), and from then on every 3rd call: data_head steps by one record exactly there, and the count is every call made while enabled (19)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period() (period_left = 0), perf_swevent_event(), perf_swevent_set_period() (hw.last_period); kernel/trace/trace_event_perf.c perf_trace_add(); the same sequence as ioctl/period_running_sw_old_period_once",
	.alone = true,
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_upclk_period_fn");
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;

	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.sample_period = OLD;
	attr.sample_type = PERF_SAMPLE_IP;	/* no PERIOD: see the comment */
	pa_period_old_once(&attr, NEW, calls);
}
