#include "perfabi.h"

#include <sys/ioctl.h>

#define OLD	8
#define NEW	2

static volatile uint64_t target __attribute__((aligned(8)));

static void writes(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

/*
 * A breakpoint event is sampled through the software-event period logic
 * (perf_bp_event() -> perf_swevent_event()). PERF_EVENT_IOC_PERIOD on the
 * enabled event of the running task stops it (hw_breakpoint_stop()), sets
 * period_left to 0 and starts it again (hw_breakpoint_start()): the next
 * write overflows at once, the next after that OLD writes after the ioctl
 * (perf_swevent_set_period() still uses hw.last_period, the old period,
 * once), then every NEW writes. PERF_SAMPLE_PERIOD is left out: with it a
 * software-style event samples every hit (cases/sample/period_sw_every_event).
 * Scheduled in again, a breakpoint re-arms its period from the new one
 * (hw_breakpoint_add() -> perf_swevent_set_period()): a try switched out
 * is run again (pa_period_old_once(), the sequence for every
 * implementation).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on an enabled, running write-watchpoint sampling event takes effect at once: of the writes after the ioctl the 1st overflows, then the OLD-th (the old period, once, as for software events), then every NEW-th; every sample's PERF_SAMPLE_ADDR is bp_addr and the count is every write",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD (takes effect immediately since Linux 3.14); kernel/events/core.c __perf_event_period() (pmu->stop, period_left = 0, pmu->start: hw_breakpoint_stop()/hw_breakpoint_start()) and perf_swevent_set_period() (the next period from hw.last_period)",
	.covers = "ioctl.PERIOD type.BREAKPOINT attr.sample_period sample.ADDR record.SAMPLE",
	.pmu = "breakpoint",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);

	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_ADDR;
	pa_period_old_once(&a, NEW, writes);
}
