#include "perfabi.h"

/*
 * The times of a kprobe PMU event come from core code, as for any event:
 * event_sched_in()/event_sched_out() and __perf_update_times() stamp them
 * with the task context's time, which stands still while the task is off
 * the CPU. The kprobe PMU puts its events in the software context
 * (perf_kprobe.task_ctx_nr = perf_sw_context in kernel/events/core.c), so
 * they are never multiplexed, and its pmu->add is perf_trace_add(), which
 * links the event into the probe's per-CPU hlist and cannot fail at
 * sched-in; a hit reaches it from the kprobe's pre-handler
 * (kprobe_dispatcher() -> kprobe_perf_func() -> perf_trace_buf_submit()
 * -> perf_tp_event() -> perf_swevent_event()). The probe is on the
 * getppid syscall's entry function, the event on this task only. Hence,
 * exactly: 0/0/0 before the first ENABLE; while enabled (across a sleep
 * too) time_enabled == time_running > 0, growing, and the value the 3
 * getppid() calls; after DISABLE both equal and frozen, a call not
 * counted. Where the kprobe rules (counting the kernel, then
 * perfmon_capable() in perf_kprobe_event_init()) refuse the open, the
 * refusal is the check. The check is pa_hit_expect_times_equal()
 * (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "a kprobe PMU event's (a kprobe on the getppid syscall's entry function) time_enabled and time_running: both 0 before the first enable; while it is enabled, across a sleep, both > 0, growing and exactly equal (a kprobe event is never multiplexed), the value the 3 getppid() calls made; after DISABLE both equal and frozen",
	.ref = "perf_event_open(2), Reading results: time_enabled, time_running \"Total time the event was enabled and running. Normally these values are the same\"; read_format PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING; kernel/events/core.c __perf_update_times(), event_sched_in(), perf_kprobe_event_init() (perf_sw_context); kernel/trace/trace_event_perf.c perf_trace_add(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING type.dynamic attr.kprobe_func",
	PA_HIT_NEEDS_KPROBE,
) {
	pa_hit_expect_times_equal(PA_HIT_KPROBE);
}
