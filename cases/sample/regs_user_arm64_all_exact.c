#include "perfabi.h"

/*
 * arm64's register set for PERF_SAMPLE_REGS_USER is x0..x30, sp, pc
 * (PERF_REG_ARM64_X0..X30 = 0..30, SP 31, PC 32; PERF_REG_ARM64_MAX 33).
 * perf_reg_value() reads them from the task's saved user pt_regs. A user
 * execute breakpoint traps before its instruction runs, with every
 * register as the code set it: pa_arm64_regs_stub() loads x0..x30 with
 * known constants and records its sp, and a breakpoint on the nop at
 * pa_arm64_regs_bp samples all 33 (mask (1 << 33) - 1). The one sample
 * has abi PERF_SAMPLE_REGS_ABI_64 and each register exactly: x<n> =
 * PA_ARM64_REGVAL(n), sp as recorded, pc = the breakpoint's address
 * (= the sample ip).
 */
PERFABI_CASE(
	.assertion = "arm64: PERF_SAMPLE_REGS_USER with sample_regs_user x0..x30, sp, pc gives abi PERF_SAMPLE_REGS_ABI_64 and, for a user breakpoint, each register exactly as the code held it: x0..x30 the values loaded, sp the stack pointer, pc the breakpoint address",
	.ref = "perf_event_open(2), sample_regs_user \"The layout of the register mask is architecture-specific and is described in the kernel header file arch/ARCH/include/uapi/asm/perf_regs.h\"; arch/arm64/include/uapi/asm/perf_regs.h; arch/arm64/kernel/perf_regs.c perf_reg_value()",
	.covers = "sample.REGS_USER attr.sample_regs_user type.BREAKPOINT",
	.min_kernel = "3.18",
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

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	a.sample_regs_user = (1ULL << 33) - 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_arm64_regs_stub(&sp);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 1);
	pa_ring_sample(&r, &a, &s);
	ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	for (unsigned n = 0; n <= 30; n++)
		if (s.regs_user[n] != PA_ARM64_REGVAL(n)) {
			pa_diag("x%u: 0x%llx, expected 0x%llx", n,
				(unsigned long long)s.regs_user[n],
				(unsigned long long)PA_ARM64_REGVAL(n));
			EXPECT_EQ(s.regs_user[n], PA_ARM64_REGVAL(n));
		}
	EXPECT_EQ(s.regs_user[31], sp);
	EXPECT_EQ(s.regs_user[32], (uint64_t)(uintptr_t)pa_arm64_regs_bp);
	EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)pa_arm64_regs_bp);
	EXPECT_TRUE(pa_ring_find(&r, PERF_RECORD_SAMPLE) == NULL);	/* the one hit, one sample */
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the register set checked here is arm64's (x0..x30, sp, pc)");
#endif
}
