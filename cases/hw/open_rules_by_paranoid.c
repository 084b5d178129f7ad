#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * perf_event_paranoid governs hardware events as it does every other: at
 * open, perf_event_open() refuses with EACCES a per-task event counting
 * the kernel (exclude_kernel clear: perf_allow_kernel(), level > 1 without
 * CAP_PERFMON) and a CPU-wide event (pid == -1: perf_allow_cpu(), level
 * > 0 without CAP_PERFMON); Debian's level 3 refuses everything without
 * CAP_SYS_ADMIN (Debian's perf_event_open(): perf_paranoid_any()).
 * pa_expected_errno() applies those rules to the identity and level the
 * case runs under; run in every cell of the privilege matrix.
 *
 * Three PERF_COUNT_HW_INSTRUCTIONS opens: user space only on this task
 * (PA_NEED_SELF), user and kernel on this task (PA_NEED_KERNEL), and user
 * space only on this task's CPU for every task (PA_NEED_CPU): each gives
 * its rule's errno or opens. Where the user-only one opens it counts: on a
 * PMU that counts every instruction (QEMU -icount shift=0) K more loop
 * iterations add exactly 3K; elsewhere the open alone is checked.
 */
PERFABI_CASE(
	.assertion = "perf_event_open() of PERF_COUNT_HW_INSTRUCTIONS follows perf_event_paranoid: user-only on self, "
		     "counting the kernel, and CPU-wide each fail with EACCES exactly where the rules for the identity and "
		     "level say so; the user-only event, where it opens, adds exactly 3K over K loop iterations on a PMU that "
		     "counts every instruction",
	.ref = "perf_event_open(2), \"perf_event related configuration files\": /proc/sys/kernel/perf_event_paranoid; "
	       "kernel/events/core.c perf_event_open() (perf_allow_kernel(), perf_allow_cpu()); "
	       "Documentation/admin-guide/perf-security.rst",
	.covers = "hw.INSTRUCTIONS attr.exclude_kernel arg.pid arg.cpu",
	.hw_pmu = true,
	.privileged = true,
	.alone = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr self = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	struct perf_event_attr kern = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	struct perf_event_attr wide = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int want_self = pa_expected_errno(PA_NEED_SELF);
	int want_kern = pa_expected_errno(PA_NEED_KERNEL);
	int want_wide = pa_expected_errno(PA_NEED_CPU);
	int fs, fk, fw, cpu;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_EQ(pa_allowed_cpus(&cpu, 1), 1);
	ASSERT_EQ(pa_pin_cpu(cpu), 0);
	pa_diag("paranoid %d: want %s (self), %s (kernel), %s (cpu %d)", pa_paranoid(),
		want_self ? pa_errno_name(want_self) : "open", want_kern ? pa_errno_name(want_kern) : "open",
		want_wide ? pa_errno_name(want_wide) : "open", cpu);
	kern.exclude_kernel = 0;
	fs = EXPECT_OPEN_RESULT(&self, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want_self);
	fk = EXPECT_OPEN_RESULT(&kern, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want_kern);
	fw = EXPECT_OPEN_RESULT(&wide, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC, want_wide);
	if (fs >= 0 && !want_self && pa_pmu_exact())
		EXPECT_EQ(pa_hw_loop_delta(fs, K), 3 * K);
	if (fw >= 0)
		close(fw);
	if (fk >= 0)
		close(fk);
	if (fs >= 0)
		close(fs);
}
