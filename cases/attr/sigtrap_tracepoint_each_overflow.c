#include "perfabi.h"

/*
 * sigtrap on a tracepoint event (syscalls:sys_enter_getppid,
 * exclude_kernel, on this task, sample_period 1: every call is an
 * overflow). The hit comes from perf_syscall_enter()
 * (kernel/trace/trace_syscalls.c) with the syscall's user registers
 * through perf_tp_event() (the task's own hlist, not
 * __perf_tp_event_target_task(), which skips sigtrap events) ->
 * perf_swevent_event() -> __perf_event_overflow(): the sample is valid
 * (sample_is_allowed(): user regs), pending_work is clear, so
 * task_work_add(current, &event->pending_task, TWA_RESUME) and
 * pending_addr 0 (perf_tp_event() inits the sample data with addr 0, and
 * no PERF_SAMPLE_ADDR). On the syscall's way back to user space
 * perf_pending_task() -> perf_sigtrap() -> send_sig_perf(): SIGTRAP,
 * TRAP_PERF, si_addr 0, si_perf_data attr.sig_data, si_perf_type
 * event->orig_type (PERF_TYPE_TRACEPOINT), si_perf_flags 0 (SIGTRAP is not
 * blocked). The next call finds pending_work clear again: 5 calls give
 * exactly 5 SIGTRAPs, 5 samples and a count of 5. The oracle is
 * pa_hit_expect_sigtrap_each_overflow() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "a sampling tracepoint event (syscalls:sys_enter_getppid, period 1) with sigtrap sends one SIGTRAP per overflow: "
		     "5 getppid() calls give exactly 5 SIGTRAPs, each si_code TRAP_PERF, si_addr 0, si_perf_data = attr.sig_data, "
		     "si_perf_type PERF_TYPE_TRACEPOINT (2) and si_perf_flags 0, 5 samples and a count of 5",
	.ref = "perf_event_open(2), sigtrap (since Linux 5.13): \"This enables synchronous signal delivery of SIGTRAP on event "
	       "overflow\"; include/uapi/linux/perf_event.h sig_data \"passed back to user via siginfo_t::si_perf_data\"; "
	       "kernel/events/core.c perf_tp_event() -> perf_swevent_event(), __perf_event_overflow() (pending_work, task_work_add()), "
	       "perf_pending_task(), perf_sigtrap() (orig_type, sig_data); kernel/signal.c send_sig_perf()",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec type.TRACEPOINT sample.TID",
	PA_HIT_NEEDS_TRACEPOINT,
	.min_kernel = "5.13",
	.timeout = 30,
) {
	pa_hit_expect_sigtrap_each_overflow(PA_HIT_TRACEPOINT, PERF_TYPE_TRACEPOINT);
}
