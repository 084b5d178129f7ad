#include "perfabi.h"

/*
 * "A signal is provided for every overflow, even if wakeup_events is not
 * set", on a kprobe PMU event (a kprobe on the getppid syscall's entry
 * function, on this task, sample_period 1: every call is an overflow). The
 * hit comes from kprobe_dispatcher() -> kprobe_perf_func()
 * (kernel/trace/trace_kprobe.c) with kernel registers (exclude_kernel
 * stays clear), through perf_tp_event() -> perf_swevent_event() ->
 * perf_swevent_overflow() -> __perf_event_overflow(), which sets
 * pending_kill = POLL_IN and, the fd having a fasync owner, queues
 * event->pending_irq; perf_pending_irq() -> perf_event_wakeup() ->
 * kill_fasync() sends F_SETSIG's signal with si_fd and POLL_IN. The ring
 * (wakeup_events 0) stays far below its half-buffer watermark. 8 calls,
 * each awaited: exactly 8 signals, 8 samples, a count of 8. The open
 * follows the kprobe PMU's rules (pa_kprobe_expected_errno()): where they
 * refuse it, the refusal is what is checked. The oracle is
 * pa_hit_expect_sigio_each_overflow() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "with O_ASYNC, F_SETSIG and wakeup_events 0, every overflow of a sampling kprobe PMU event (a kprobe on the "
		     "getppid syscall's entry function, period 1) sends one signal: 8 getppid() calls, each awaited, give exactly 8 "
		     "signals, each POLL_IN with si_band POLLIN|POLLRDNORM and si_fd the event's fd, 8 samples and a count of 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every "
	       "overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c perf_tp_event() -> "
	       "perf_swevent_event(), __perf_event_overflow() (pending_kill = POLL_IN, irq_work_queue(&event->pending_irq)), "
	       "perf_pending_irq(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.dynamic attr.kprobe_func sample.TID",
	PA_HIT_NEEDS_KPROBE,
	.timeout = 30,
) {
	pa_hit_expect_sigio_each_overflow(PA_HIT_KPROBE);
}
