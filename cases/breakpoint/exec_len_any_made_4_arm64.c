#include "perfabi.h"

/*
 * arm64: an AArch64 instruction is 4 bytes and an execute breakpoint
 * watches exactly one (BCR.BAS 0b1111). arch_build_bp_info() takes any
 * bp_len from 1 to 8 (the byte-select lengths) and, for a native execute
 * breakpoint, replaces a length other than 4 by 4 ("Some tools (I'm
 * looking at you perf) assume that breakpoints should be sizeof(long)"):
 * no EINVAL, unlike x86 (breakpoint/exec_len_not_long_einval). So an
 * execute breakpoint of bp_len 1, 2, 4 or 8 on a function's first
 * instruction counts exactly the calls, each the same.
 */
static volatile int calls;

__attribute__((noinline, used)) static void pa_bp_target(void)
{
	calls++;
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "arm64: an execute breakpoint accepts bp_len 1, 2, 4 and 8 (a native one is made 4 bytes, one instruction) and with each counts exactly the calls of the function at bp_addr",
	.ref = "perf_event_open(2), bp_len; arch/arm64/kernel/hw_breakpoint.c arch_build_bp_info(): ARM_BREAKPOINT_EXECUTE, !is_compat_bp() and len != ARM_BREAKPOINT_LEN_4 -> hw->ctrl.len = ARM_BREAKPOINT_LEN_4",
	.covers = "attr.bp_len attr.bp_type type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	static const uint64_t lens[] = { HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_LEN_2,
					 HW_BREAKPOINT_LEN_4, HW_BREAKPOINT_LEN_8 };
	void (*volatile fn)(void) = pa_bp_target;

	for (unsigned l = 0; l < 4; l++) {
		struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, (const void *)pa_bp_target, lens[l]);
		int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
		int n = 10 + (int)l;

		calls = 0;
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		for (int i = 0; i < n; i++)
			fn();
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		pa_diag("bp_len %llu: %llu hits for %d calls", (unsigned long long)lens[l],
			(unsigned long long)pa_read_one(fd), n);
		EXPECT_EQ(pa_read_one(fd), (uint64_t)n);
		EXPECT_EQ(calls, n);
		close(fd);
	}
#else
	pa_skip("the execute-breakpoint length fix-up checked here is arm64's (x86 refuses a length other than sizeof(long): breakpoint/exec_len_not_long_einval)");
#endif
}
