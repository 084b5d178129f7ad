#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_INTR gives {abi, regs[popcount(sample_regs_intr)]} of the registers at the event; for a user page fault the IP register is the faulting user ip",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"abi, regs[weight(mask)]: If PERF_SAMPLE_REGS_INTR is enabled, then the user CPU registers are recorded ... sample_regs_intr\" (3.19)",
	.covers = "sample.REGS_INTR attr.sample_regs_intr",
	.min_kernel = "3.19",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	if (PA_REG_IP < 0 || sizeof(long) != 8)
		pa_skip("register numbers known for x86_64 and arm64 only");
	/* LOCKDOWN_PERF is a confidentiality reason: integrity mode allows it */
	if (pa_lockdown_confidentiality())
		pa_skip("kernel lockdown (confidentiality) refuses PERF_SAMPLE_REGS_INTR (field/sample_regs_intr_sw_accepted checks the EPERM)");
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = 1ULL << PA_REG_SP | 1ULL << PA_REG_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	EXPECT_EQ(s.regs_intr[1], s.ip);
}
