#include "perfabi.h"

/*
 * exclude_kernel on a kprobe event. A kprobe fires in kernel space and
 * hands perf the kernel registers of the probed function
 * (kprobe_dispatcher() -> kprobe_perf_func() -> perf_trace_buf_submit()
 * -> perf_tp_event()), and perf_tp_event_match() (kernel/events/core.c)
 * drops such a hit for an exclude_kernel event:
 *	if (event->attr.exclude_kernel && !user_mode(regs))
 *		return 0;
 * So a kprobe on the getppid syscall's entry function with exclude_kernel
 * set counts exactly 0 over 9 getppid() calls. Such an event needs no
 * right to count the kernel, only the kprobe PMU's own
 * (perfmon_capable() in perf_kprobe_event_init()); where that is refused,
 * the refusal is the check.
 * Then the same hits again for a twin with both bits clear, opened where
 * the rules let this identity count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL); elsewhere the refusal is checked):
 * it counts every hit, which shows the hits happen. One event at a time:
 * under QEMU's TCG two watchpoints on one word do not both trap. The
 * check is pa_hit_expect_exclude() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "a kprobe PMU event (a kprobe on the getppid syscall's entry function) opened with exclude_kernel set counts 0 over 9 getppid() calls, every hit being in kernel space, while its twin with exclude_kernel clear counts the 9",
	.ref = "perf_event_open(2), exclude_kernel: \"If this bit is set, the count excludes events that happen in kernel space\"; kernel/events/core.c perf_tp_event_match() (exclude_kernel && !user_mode(regs)), perf_kprobe_event_init(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "attr.exclude_kernel type.dynamic attr.kprobe_func",
	PA_HIT_NEEDS_KPROBE,
) {
	pa_hit_expect_exclude(PA_HIT_KPROBE, &(struct pa_hit_exclude){
		.exclude_user = false, .exclude_kernel = true, .hits = 9, .want = 0 });
}
