#include "perfabi.h"

/*
 * freq on a tracepoint event (syscalls:sys_enter_getppid, exclude_kernel,
 * on this task). Each getppid() is one hit: perf_syscall_enter()
 * (kernel/trace/trace_syscalls.c) submits the record with the syscall's
 * user registers, perf_tp_event() -> perf_tp_event_match() lets them
 * through exclude_kernel, and perf_swevent_event() adds 1 to the count and
 * counts hw.period_left down. With freq = 1 the period starts at 1
 * (perf_event_alloc()) and is raised at each overflow
 * (__perf_event_overflow() -> __perf_event_account_interrupt() ->
 * perf_adjust_period(), where perf_clock() moved by less than two ticks
 * since the last one) and at each tick (perf_adjust_freq_unthr_events(),
 * through perf_swevent_stop()/perf_swevent_start(), the tracepoint PMU's
 * stop and start). sample_freq 1 over 256 fast calls therefore gives a
 * few samples, the first with period 1, while a sample_period 1 twin,
 * enabled next, writes one per call of 256 more; each counts its 256. The oracle is
 * pa_hit_expect_freq_adapts() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "attr.freq on a tracepoint event (syscalls:sys_enter_getppid): sample_freq = 1 is a rate and the kernel adapts "
		     "the period, so 256 fast getppid() calls give samples, the first with PERF_SAMPLE_PERIOD 1 and at most 2 after two overflows < 1 ms apart (under 64 where the clock never gave those), where a "
		     "sample_period 1 twin over 256 more gives exactly 256; each counts its 256",
	.ref = "perf_event_open(2), sample_period, sample_freq: \"sample_freq can be used if you wish to use frequency rather than "
	       "period. In this case you set the freq flag. The kernel will adjust the sampling period to try and achieve the desired "
	       "rate\"; kernel/events/core.c perf_event_alloc() (hw.sample_period = 1), __perf_event_account_interrupt(), "
	       "perf_adjust_period(), perf_adjust_freq_unthr_events(), perf_tp_event() -> perf_swevent_event(); "
	       "kernel/trace/trace_syscalls.c perf_syscall_enter()",
	.covers = "attr.freq attr.sample_freq sample.PERIOD sample.TID record.SAMPLE type.TRACEPOINT",
	PA_HIT_NEEDS_TRACEPOINT,
	/* the period adapts on an overflow only where perf_clock() moved
	 * by less than two ticks since the last one */
	.features = "hrtimer",
) {
	pa_hit_expect_freq_adapts(PA_HIT_TRACEPOINT);
}
