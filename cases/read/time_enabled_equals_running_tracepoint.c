#include "perfabi.h"

/*
 * The times of a tracepoint event come from core code, as for any event:
 * event_sched_in()/event_sched_out() and __perf_update_times() stamp them
 * with the task context's time, which stands still while the task is off
 * the CPU. A tracepoint event lives in the software context
 * (perf_tracepoint.task_ctx_nr = perf_sw_context) and is never
 * multiplexed; perf_trace_add() only links the event into the
 * tracepoint's per-CPU hlist and cannot fail at sched-in. Hence, exactly:
 * - never enabled: value, time_enabled and time_running are 0;
 * - enabled (across a sleep too): time_enabled == time_running > 0,
 *   growing, and the value counts the calls (3);
 * - disabled: both equal and frozen, and a call is not counted.
 * A failed pmu->add (time_running < time_enabled), or times that run on
 * while disabled, fail here. The check is pa_hit_expect_times_equal()
 * (harness/lib/hitchecks_b.c), the same for every hit class.
 */
PERFABI_CASE(
	.assertion = "a tracepoint event's time_enabled and time_running: both 0 before the first enable; while it is enabled, across a "
		     "sleep, both > 0, growing and exactly equal (a tracepoint event is never multiplexed), the value the 3 calls made; "
		     "after DISABLE both equal and frozen",
	.ref = "perf_event_open(2), Reading results: time_enabled, time_running \"Total time the event was enabled and running. Normally these values are the same\"; read_format "
	       "PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING; kernel/events/core.c __perf_update_times(), "
	       "event_sched_in(); kernel/trace/trace_event_perf.c perf_trace_add() (perf_sw_context)",
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING type.TRACEPOINT",
	PA_HIT_NEEDS_TRACEPOINT,
) {
	pa_hit_expect_times_equal(PA_HIT_TRACEPOINT);
}
