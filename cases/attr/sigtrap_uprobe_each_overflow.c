#include "perfabi.h"

/*
 * sigtrap on a uprobe PMU event (a uprobe on pa_hit_uprobe_fn() of this
 * executable, on this task, sample_period 1: every call is an overflow).
 * The breakpoint trap runs handle_swbp() (kernel/events/uprobes.c) ->
 * uprobe_dispatcher() -> __uprobe_perf_func() (kernel/trace/trace_uprobe.c)
 * with the task's user registers -> perf_tp_event() ->
 * perf_swevent_event() -> __perf_event_overflow(): a valid sample,
 * pending_work clear, so task_work_add(current, &event->pending_task,
 * TWA_RESUME), pending_addr 0 (no address in a tracing sample). On the way
 * back to user space perf_pending_task() -> perf_sigtrap() ->
 * send_sig_perf() queues SIGTRAP; where the probed instruction is stepped
 * out of line, uprobe_deny_signal() holds it back until the step is done
 * (handle_singlestep(): recalc_sigpending()), so it is taken once, right
 * after the probed instruction: TRAP_PERF, si_addr 0, si_perf_data
 * attr.sig_data, si_perf_type event->orig_type (the uprobe PMU's dynamic
 * type), si_perf_flags 0. 5 calls give exactly 5 SIGTRAPs, 5 samples and a
 * count of 5. The uprobe PMU needs CAP_SYS_ADMIN (perf_uprobe_event_init()):
 * elsewhere the EPERM is what is checked. The oracle is
 * pa_hit_expect_sigtrap_each_overflow() (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "a sampling uprobe PMU event (a uprobe on a function of this executable, period 1) with sigtrap sends one "
		     "SIGTRAP per overflow: 5 calls give exactly 5 SIGTRAPs, each si_code TRAP_PERF, si_addr 0, si_perf_data = "
		     "attr.sig_data, si_perf_type the uprobe PMU's type and si_perf_flags 0, 5 samples and a count of 5",
	.ref = "perf_event_open(2), sigtrap (since Linux 5.13): \"This enables synchronous signal delivery of SIGTRAP on event "
	       "overflow\"; include/uapi/linux/perf_event.h sig_data \"passed back to user via siginfo_t::si_perf_data\"; "
	       "kernel/events/core.c perf_tp_event() -> perf_swevent_event(), __perf_event_overflow() (pending_work, task_work_add()), "
	       "perf_pending_task(), perf_sigtrap() (orig_type, sig_data); kernel/trace/trace_uprobe.c __uprobe_perf_func(); "
	       "kernel/events/uprobes.c uprobe_deny_signal()",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec type.dynamic attr.uprobe_path attr.probe_offset sample.TID",
	/* PA_HIT_NEEDS_UPROBE, written out for sigtrap's 5.13 */
	.pmu = "uprobe",
	.min_kernel = "5.13",
	.alone = true,
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	pa_hit_expect_sigtrap_each_overflow(PA_HIT_UPROBE, (uint32_t)pa_pmu_type("uprobe"));
}
