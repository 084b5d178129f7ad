#include "perfabi.h"

/*
 * sigtrap on a kprobe PMU event (a kprobe on the getppid syscall's entry
 * function, on this task, sample_period 1: every call is an overflow,
 * exclude_kernel clear: a kprobe fires with kernel registers). The hit
 * comes from kprobe_dispatcher() -> kprobe_perf_func()
 * (kernel/trace/trace_kprobe.c) -> perf_tp_event() -> perf_swevent_event()
 * -> __perf_event_overflow(): sample_is_allowed() (exclude_kernel clear),
 * pending_work clear, so task_work_add(current, &event->pending_task),
 * TWA_RESUME, or TWA_NMI_CURRENT where the probe's int3 handler runs as an
 * NMI (both set TIF_NOTIFY_RESUME at once); pending_addr 0. On the
 * syscall's way back to user space perf_pending_task() -> perf_sigtrap()
 * -> send_sig_perf(): SIGTRAP, TRAP_PERF, si_addr 0, si_perf_data
 * attr.sig_data, si_perf_type event->orig_type (the kprobe PMU's dynamic
 * type), si_perf_flags 0. 5 calls give exactly 5 SIGTRAPs, 5 samples and a
 * count of 5. The open follows the kprobe PMU's rules
 * (pa_kprobe_expected_errno()): where they refuse it, the refusal is what
 * is checked. The oracle is pa_hit_expect_sigtrap_each_overflow()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "a sampling kprobe PMU event (a kprobe on the getppid syscall's entry function, period 1) with sigtrap sends "
		     "one SIGTRAP per overflow: 5 getppid() calls give exactly 5 SIGTRAPs, each si_code TRAP_PERF, si_addr 0, "
		     "si_perf_data = attr.sig_data, si_perf_type the kprobe PMU's type and si_perf_flags 0, 5 samples and a count of 5",
	.ref = "perf_event_open(2), sigtrap (since Linux 5.13): \"This enables synchronous signal delivery of SIGTRAP on event "
	       "overflow\"; include/uapi/linux/perf_event.h sig_data \"passed back to user via siginfo_t::si_perf_data\"; "
	       "kernel/events/core.c perf_tp_event() -> perf_swevent_event(), __perf_event_overflow() (pending_work, task_work_add()), "
	       "perf_pending_task(), perf_sigtrap() (orig_type, sig_data); kernel/trace/trace_kprobe.c kprobe_perf_func(); "
	       "kernel/task_work.c task_work_add()",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec type.dynamic attr.kprobe_func sample.TID",
	/* PA_HIT_NEEDS_KPROBE, written out for sigtrap's 5.13 */
	.pmu = "kprobe",
	.min_kernel = "5.13",
	.privileged = true,
	.probe = pa_probe_priv,
	.timeout = 30,
) {
	pa_hit_expect_sigtrap_each_overflow(PA_HIT_KPROBE, (uint32_t)pa_pmu_type("kprobe"));
}
