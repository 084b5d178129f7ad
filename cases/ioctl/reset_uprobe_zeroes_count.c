#include "perfabi.h"

/*
 * A uprobe PMU event's count is event->count itself, added to by every
 * hit (handle_swbp() -> uprobe_dispatcher() -> __uprobe_perf_func() in
 * kernel/trace/trace_uprobe.c -> perf_tp_event() -> perf_swevent_event():
 * local64_add), with no hardware counter behind it (perf_swevent_read()
 * does nothing), so _perf_event_reset() zeroes the whole count at once,
 * running or not: 10 calls read 10, RESET 0, 5 more 5; disabled, RESET 0
 * with time_enabled/time_running frozen and kept; enabled again, 3 calls
 * read 3. The probe is on pa_hit_uprobe_fn() of this executable and the
 * event on this task only. The uprobe PMU needs CAP_SYS_ADMIN
 * (perf_uprobe_event_init()): elsewhere the EPERM is what is checked. The
 * oracle is pa_hit_expect_reset_zeroes_count() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET sets a uprobe PMU event's (a uprobe on a function of this executable) count to zero, on a "
		     "running event as on a stopped one, and counting goes on from zero (10 calls, RESET: 0, 5 more: 5; stopped, "
		     "RESET: 0, 3 more: 3); it does not reset time_enabled or time_running",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. "
	       "This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; "
	       "kernel/events/core.c _perf_event_reset(), perf_tp_event() -> perf_swevent_event(); kernel/trace/trace_uprobe.c "
	       "__uprobe_perf_func()",
	.covers = "ioctl.RESET type.dynamic attr.uprobe_path attr.probe_offset read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	PA_HIT_NEEDS_UPROBE,
) {
	pa_hit_expect_reset_zeroes_count(PA_HIT_UPROBE);
}
