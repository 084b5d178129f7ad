#include "perfabi.h"

/*
 * freq on a kprobe PMU event (a kprobe on the getppid syscall's entry
 * function, on this task, exclude_kernel clear: a kprobe fires with
 * kernel registers). Each getppid() is one hit: kprobe_dispatcher() ->
 * kprobe_perf_func() (kernel/trace/trace_kprobe.c) submits the record with
 * the probed function's kernel registers to perf_tp_event() ->
 * perf_swevent_event(): 1 added to the count, hw.period_left counted
 * down. With freq = 1 the period starts at 1 (perf_event_alloc()) and is
 * raised at each overflow (__perf_event_account_interrupt() ->
 * perf_adjust_period(), where perf_clock() moved by less than two ticks)
 * and at each tick (perf_adjust_freq_unthr_events(), through
 * perf_swevent_stop()/perf_swevent_start(), the kprobe PMU's stop and
 * start). sample_freq 1 over 256 fast calls gives a few samples, the first
 * with period 1 (pa_freq_try_verdict(): where the clock let it adapt),
 * while a sample_period 1 twin, enabled next, writes one per
 * call of 256 more; each counts its 256. The open follows the kprobe PMU's rules
 * (pa_kprobe_expected_errno()): where they refuse it, the refusal is what
 * is checked. The oracle is pa_hit_expect_freq_adapts()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "attr.freq on a kprobe PMU event (a kprobe on the getppid syscall's entry function): sample_freq = 1 is a rate "
		     "and the kernel adapts the period, so 256 fast getppid() calls give samples, the first with PERF_SAMPLE_PERIOD 1 and at most 2 after two overflows < 1 ms apart (under 64 where the clock never gave those), where a sample_period 1 twin over 256 more gives exactly 256; each counts its 256",
	.ref = "perf_event_open(2), sample_period, sample_freq: \"sample_freq can be used if you wish to use frequency rather than "
	       "period. In this case you set the freq flag. The kernel will adjust the sampling period to try and achieve the desired "
	       "rate\"; kernel/events/core.c perf_event_alloc() (hw.sample_period = 1), __perf_event_account_interrupt(), "
	       "perf_adjust_period(), perf_adjust_freq_unthr_events(), perf_tp_event() -> perf_swevent_event(); "
	       "kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "attr.freq attr.sample_freq sample.PERIOD sample.TID record.SAMPLE type.dynamic attr.kprobe_func",
	PA_HIT_NEEDS_KPROBE,
	/* the period adapts on an overflow only where perf_clock() moved
	 * by less than two ticks since the last one */
	.features = "hrtimer",
) {
	pa_hit_expect_freq_adapts(PA_HIT_KPROBE);
}
