#include "perfabi.h"

/*
 * exclude_user on a kprobe event. A kprobe fires in kernel space, in the
 * probed kernel function, and reaches the event with those kernel
 * registers (kprobe_dispatcher() -> kprobe_perf_func() ->
 * perf_trace_buf_submit() -> perf_tp_event() -> perf_tp_event_match()).
 * The man page's reading (no user-space event is counted) and the
 * kernel's agree here, though the kernel never tests the bit:
 * perf_tp_event_match() (kernel/events/core.c, 6.12 lines 10493-10509)
 * tests only "exclude_kernel && !user_mode(regs)", and
 * perf_exclude_event(), where the software and breakpoint PMUs test
 * exclude_user, is not called. So a kprobe on the getppid syscall's entry
 * function with exclude_user set (exclude_kernel clear) counts exactly
 * the 9 getppid() calls of this task, and none of the getpid() calls
 * between them. Where the kprobe rules (counting the kernel, then
 * perfmon_capable() in perf_kprobe_event_init()) refuse the open, the
 * refusal is the check.
 * Then the same hits again for a twin with both bits clear, opened where
 * the rules let this identity count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL); elsewhere the refusal is checked):
 * it counts every hit, which shows the hits happen. One event at a time:
 * under QEMU's TCG two watchpoints on one word do not both trap. The
 * check is pa_hit_expect_exclude() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "a kprobe PMU event (a kprobe on the getppid syscall's entry function) opened with exclude_user set and exclude_kernel clear counts exactly the 9 getppid() calls, hits made in kernel space; its twin with both bits clear counts 9 too",
	.ref = "perf_event_open(2), exclude_user: \"If this bit is set, the count excludes events that happen in user space\"; kernel/events/core.c perf_tp_event_match() (only exclude_kernel && !user_mode(regs)), perf_kprobe_event_init(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "attr.exclude_user type.dynamic attr.kprobe_func",
	PA_HIT_NEEDS_KPROBE,
) {
	pa_hit_expect_exclude(PA_HIT_KPROBE, &(struct pa_hit_exclude){
		.exclude_user = true, .exclude_kernel = false, .hits = 9, .want = 9 });
}
