#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_USER gives {abi, regs[popcount(sample_regs_user)]}: abi PERF_SAMPLE_REGS_ABI_64 for a 64-bit task, then the asked registers in bit order; the IP register equals the sample ip",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"abi, regs[weight(mask)]: If PERF_SAMPLE_REGS_USER is enabled, then the user CPU registers are recorded. The abi field is one of PERF_SAMPLE_REGS_ABI_NONE, PERF_SAMPLE_REGS_ABI_32, or PERF_SAMPLE_REGS_ABI_64\" (3.7); arch/*/include/uapi/asm/perf_regs.h",
	.covers = "sample.REGS_USER attr.sample_regs_user",
	.min_kernel = "3.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	if (PA_REG_IP < 0 || sizeof(long) != 8)
		pa_skip("register numbers known for x86_64 and arm64 only");
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = 1ULL << PA_REG_SP | 1ULL << PA_REG_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	/* bit order: SP before IP on x86_64 (7, 8) and arm64 (31, 32) */
	EXPECT_EQ(s.regs_user[1], s.ip);
	EXPECT_NE(s.regs_user[0], 0u);
}
