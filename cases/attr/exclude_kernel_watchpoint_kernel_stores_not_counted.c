#include "perfabi.h"

/*
 * exclude_kernel on a write watchpoint: the kernel's stores into the
 * watched user word are not counted.
 * A write watchpoint on a user word traps on every store into it,
 * whoever makes it: the CPU's debug registers do not look at the
 * privilege level of a data access. The kernel makes such a store when
 * read() copies pipe data into the word (copy_to_user(), one byte per
 * read(): one store, one trap). x86's #DB handler
 * (exc_debug_kernel() -> notify_debug() -> hw_breakpoint_handler())
 * reports it through perf_bp_event() with the kernel registers of the
 * copy, and perf_bp_event() applies perf_exclude_event()
 * (kernel/events/core.c): exclude_user drops the hits whose registers are
 * user_mode(), exclude_kernel the others. The case makes 5 user stores
 * (pa_hit(), each beside a store to the next, unwatched word) and 3
 * one-byte read()s into the word, the pipe filled beforehand. x86-64
 * only: elsewhere (arm64's uaccess stores are unprivileged sttr) the
 * kernel store's trap is not known here, and the check skips.
 * The event with exclude_kernel set (any identity may open it) counts
 * exactly the 5 user stores. Without the test in perf_exclude_event() it
 * would count 8, telling an unprivileged user when the kernel wrote.
 * Then the same hits again for a twin with both bits clear, opened where
 * the rules let this identity count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL); elsewhere the refusal is checked):
 * it counts every hit, which shows the hits happen. One event at a time:
 * under QEMU's TCG two watchpoints on one word do not both trap. The
 * check is pa_hit_expect_exclude() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "a write watchpoint on a user word opened with exclude_kernel set counts exactly the 5 stores this task makes in user mode and none of the 3 stores the kernel makes into the word (one-byte read()s from a pipe: copy_to_user()); its twin with exclude_kernel clear, where it may open, counts 8",
	.ref = "perf_event_open(2), exclude_kernel: \"If this bit is set, the count excludes events that happen in kernel space\"; kernel/events/core.c perf_bp_event() -> perf_exclude_event() (exclude_kernel && !user_mode(regs)); arch/x86/kernel/hw_breakpoint.c hw_breakpoint_handler(); arch/x86/kernel/traps.c exc_debug_kernel()",
	.covers = "attr.exclude_kernel type.BREAKPOINT attr.bp_type attr.bp_addr",
	PA_HIT_NEEDS_WATCHPOINT,
	.privileged = true,	/* the twin: counting the kernel */
) {
	pa_hit_expect_exclude(PA_HIT_WATCHPOINT, &(struct pa_hit_exclude){
		.exclude_user = false, .exclude_kernel = true, .hits = 5,
		.kernel_stores = 3, .want = 5 });
}
