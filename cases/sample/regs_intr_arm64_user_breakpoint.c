#include "perfabi.h"

/*
 * PERF_SAMPLE_REGS_INTR records the registers the event's overflow was
 * handed (perf_sample_regs_intr(): the pt_regs of the exception or
 * interrupt), PERF_SAMPLE_REGS_USER the task's user registers. A user
 * execute breakpoint on arm64 is a debug exception taken from EL0, whose
 * pt_regs are the user registers: so both sets are the same 33 values,
 * x0..x30 as pa_arm64_regs_stub() loaded them, sp, and pc the breakpoint
 * address, and each abi word is PERF_SAMPLE_REGS_ABI_64.
 */
PERFABI_CASE(
	.assertion = "arm64: for a user-space breakpoint hit, PERF_SAMPLE_REGS_INTR (x0..x30, sp, pc) gives the registers of the exception, which are the user registers: each equals PERF_SAMPLE_REGS_USER's and the values the code held, pc the breakpoint address",
	.ref = "perf_event_open(2), sample_regs_intr (3.19); kernel/events/core.c perf_sample_regs_intr(), perf_sample_regs_user(); arch/arm64/kernel/hw_breakpoint.c breakpoint_handler() -> perf_bp_event(bp, regs)",
	.covers = "sample.REGS_INTR attr.sample_regs_intr sample.REGS_USER type.BREAKPOINT",
	.min_kernel = "3.19",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, pa_arm64_regs_bp, HW_BREAKPOINT_LEN_4);
	struct pa_sample s;
	struct pa_ring r;
	uint64_t sp = 0;
	int fd;

	if (pa_lockdown_confidentiality())
		pa_skip("kernel lockdown (confidentiality) refuses PERF_SAMPLE_REGS_INTR");
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR;
	a.sample_regs_user = (1ULL << 33) - 1;
	a.sample_regs_intr = (1ULL << 33) - 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_arm64_regs_stub(&sp);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 1);
	pa_ring_sample(&r, &a, &s);
	ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	for (unsigned n = 0; n <= 30; n++)
		if (s.regs_intr[n] != PA_ARM64_REGVAL(n) || s.regs_user[n] != s.regs_intr[n]) {
			pa_diag("x%u: intr 0x%llx user 0x%llx, expected 0x%llx", n,
				(unsigned long long)s.regs_intr[n],
				(unsigned long long)s.regs_user[n],
				(unsigned long long)PA_ARM64_REGVAL(n));
			EXPECT_EQ(s.regs_intr[n], PA_ARM64_REGVAL(n));
			EXPECT_EQ(s.regs_user[n], s.regs_intr[n]);
		}
	EXPECT_EQ(s.regs_intr[31], sp);
	EXPECT_EQ(s.regs_intr[32], (uint64_t)(uintptr_t)pa_arm64_regs_bp);
	EXPECT_EQ(s.regs_user[31], s.regs_intr[31]);
	EXPECT_EQ(s.regs_user[32], s.regs_intr[32]);
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the register set checked here is arm64's (x0..x30, sp, pc)");
#endif
}
