#include "perfabi.h"

/*
 * PERF_EVENT_IOC_RESET on a breakpoint event: _perf_event_reset() reads
 * the event (perf_event_read() -> hw_breakpoint_pmu_read()) and sets
 * event->count to 0. A breakpoint event's count is incremented directly by
 * perf_bp_event() -> perf_swevent_event(), one per trap, so the counts are
 * exact: after RESET the count is 0 and goes on from there, by one for
 * each write to the watched u64 (a write to the next word is no hit); the
 * breakpoint stays installed (RESET is no DISABLE). time_enabled and
 * time_running are not reset: they go on from where they were while the
 * event runs, and stay frozen while it is disabled. 10 writes read 10,
 * RESET 0, 5 more 5; disabled, 3 writes not counted, RESET 0 with the
 * times kept; enabled again, 3 writes read 3. The oracle is
 * pa_hit_expect_reset_zeroes_count() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET on a write watchpoint sets its count to 0, while it runs (10 writes read 10, then 0 after the "
		     "RESET, then 5 after 5 more writes) and while it is disabled; time_enabled and time_running are not reset",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. This "
	       "resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; "
	       "kernel/events/core.c _perf_event_reset(), perf_bp_event()",
	.covers = "ioctl.RESET type.BREAKPOINT read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	PA_HIT_NEEDS_WATCHPOINT,
) {
	pa_hit_expect_reset_zeroes_count(PA_HIT_WATCHPOINT);
}
