#include "perfabi.h"

/*
 * freq on a breakpoint event (a write watchpoint, LEN_8, on a word of the
 * library, on this task). Each store to the word is one hit: the debug
 * trap runs hw_breakpoint_handler() (arch/x86/kernel/hw_breakpoint.c) ->
 * perf_bp_event() with the user registers of the store, and
 * perf_swevent_event() adds 1 to the count and counts hw.period_left down.
 * With freq = 1 the period starts at 1 (perf_event_alloc()) and is raised
 * at each overflow (__perf_event_account_interrupt() ->
 * perf_adjust_period(), where perf_clock() moved by less than two ticks)
 * and at each tick (perf_adjust_freq_unthr_events(), through
 * hw_breakpoint_stop()/hw_breakpoint_start() in
 * kernel/events/hw_breakpoint.c, which only set hw.state: the debug
 * register stays programmed). sample_freq 1 over 256 fast stores gives a
 * few samples, the first with period 1, while a sample_period 1 twin (a
 * second watchpoint on the same word, enabled after the first is disabled:
 * QEMU TCG apparently reports only the first of two debug registers matching one
 * store) writes one per store; each counts its 256. The oracle is pa_hit_expect_freq_adapts()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "attr.freq on a breakpoint event (a write watchpoint on an 8-byte word): sample_freq = 1 is a rate and the kernel "
		     "adapts the period, so 256 fast stores give samples, the first with PERF_SAMPLE_PERIOD 1 and at most 2 after two overflows < 1 ms apart (under 64 where the clock never gave those), where a "
		     "sample_period 1 twin over 256 more gives exactly 256; each counts its 256",
	.ref = "perf_event_open(2), sample_period, sample_freq: \"sample_freq can be used if you wish to use frequency rather than "
	       "period. In this case you set the freq flag. The kernel will adjust the sampling period to try and achieve the desired "
	       "rate\"; kernel/events/core.c perf_event_alloc() (hw.sample_period = 1), __perf_event_account_interrupt(), "
	       "perf_adjust_period(), perf_adjust_freq_unthr_events(), perf_bp_event() -> perf_swevent_event(); "
	       "kernel/events/hw_breakpoint.c hw_breakpoint_stop(), hw_breakpoint_start()",
	.covers = "attr.freq attr.sample_freq sample.PERIOD sample.TID record.SAMPLE type.BREAKPOINT",
	/* PA_HIT_NEEDS_WATCHPOINT, written out for the second feature: the
	 * period adapts on an overflow only where perf_clock() moved by less
	 * than two ticks since the last one */
	.pmu = "breakpoint",
	.features = "bp-trap hrtimer",
	.probe = pa_probe_self_perf,
) {
	pa_hit_expect_freq_adapts(PA_HIT_WATCHPOINT);
}
