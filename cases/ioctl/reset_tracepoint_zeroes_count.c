#include "perfabi.h"

/*
 * A tracepoint's count is event->count itself, added to by every hit
 * (perf_tp_event() -> perf_swevent_event(): local64_add), with no
 * hardware counter behind it (perf_swevent_read() does nothing), so
 * _perf_event_reset() zeroes the whole count at once, running or not.
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) counts every call; the
 * counts are calls, the CPU time spent only makes the times advance however
 * coarse the clock. 10 calls read 10, RESET 0, 5 more 5; disabled, RESET 0
 * with time_enabled/time_running frozen and kept; enabled again, 3 calls
 * read 3. The oracle is pa_hit_expect_reset_zeroes_count()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET sets a tracepoint event's count to zero, on a running event as on a stopped one, and counting goes on from zero (10 getppid() calls, RESET: 0, 5 more: 5); it does not reset time_enabled or time_running",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; kernel/events/core.c _perf_event_reset(), perf_tp_event() -> perf_swevent_event()",
	.covers = "ioctl.RESET type.TRACEPOINT read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	PA_HIT_NEEDS_TRACEPOINT,
) {
	pa_hit_expect_reset_zeroes_count(PA_HIT_TRACEPOINT);
}
