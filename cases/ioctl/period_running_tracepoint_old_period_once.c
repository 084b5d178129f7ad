#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define OLD	8
#define NEW	3

static void calls(int n)
{
	for (int i = 0; i < n; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);	/* another syscall: not this tracepoint */
	}
}

/*
 * A tracepoint is sampled through the software-event period logic
 * (perf_tp_event() -> perf_swevent_event()). PERF_EVENT_IOC_PERIOD on the
 * enabled event of the running task stops it (perf_swevent_stop()), sets
 * period_left to 0 and starts it again (perf_swevent_start()): the next
 * hit overflows at once, the next after that OLD hits after the ioctl
 * (perf_swevent_set_period() takes hw.last_period, still the old period,
 * once), then every NEW hits: the sequence of the software events
 * (ioctl/period_running_sw_old_period_once) and breakpoints
 * (ioctl/period_ioctl_running_watchpoint).
 *
 * Scheduled in again between the ioctl and the first call after it, the
 * event re-arms its period from the new one (perf_trace_add() ->
 * perf_swevent_set_period() with period_left 0), and that call no longer
 * overflows: a try with a context switch in its window says nothing and is
 * run again (pa_period_old_once(), which runs the sequence for every
 * implementation).
 *
 * PERF_SAMPLE_PERIOD is left out: with it a tracepoint samples every hit.
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) sees every call.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on an enabled, running tracepoint sampling event takes effect at once: of the getppid() calls after the ioctl the 1st overflows, then the OLD-th (the old period, once, as for software events), then every NEW-th; the count is every call",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD: \"Since Linux 3.7 (on ARM) and Linux 3.14 (all other architectures), the new period takes effect immediately\"; kernel/events/core.c __perf_event_period() (pmu->stop, period_left = 0, pmu->start: perf_swevent_stop()/perf_swevent_start()), perf_tp_event() -> perf_swevent_event() and perf_swevent_set_period() (the next period from hw.last_period)",
	.covers = "ioctl.PERIOD type.TRACEPOINT attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.tracefs = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));

	a.exclude_kernel = 1;
	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_IP;
	pa_period_old_once(&a, NEW, calls);
}
