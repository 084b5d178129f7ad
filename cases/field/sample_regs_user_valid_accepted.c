#include "perfabi.h"

/*
 * A mask of defined registers passes perf_reg_validate(), and the samples
 * then carry them: {header, ip, abi, regs[2]} = 40 bytes, abi
 * PERF_SAMPLE_REGS_ABI_64 for this 64-bit task, and the IP/PC register
 * (after SP in bit order on x86_64 and arm64) equal to the sample ip.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_USER with a sample_regs_user mask of defined registers (SP, IP/PC) is accepted on a software event, and its page-fault samples are 40 bytes with abi PERF_SAMPLE_REGS_ABI_64 and the IP/PC register equal to the sample ip",
	.ref = "perf_event_open(2), sample_regs_user; PERF_RECORD_SAMPLE \"abi, regs[weight(mask)]\"; kernel/events/core.c perf_copy_attr() -> perf_reg_validate()",
	.covers = "attr.sample_regs_user sample.REGS_USER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_ring r;
	int fd;

	if (!pa_regs_valid_mask() || PA_REG_IP < 0 || sizeof(long) != 8)
		pa_skip("no perf_regs.h layout known for this architecture");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = pa_regs_valid_mask();
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_count_over(fd, pa_work_pages, 2);
	h = pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(h->size, 40);
	EXPECT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
	if (s.var.regs_user_abi == PA_SAMPLE_REGS_ABI_64)
		EXPECT_EQ(s.regs_user[1], s.ip);
	pa_ring_unmap(&r);
	close(fd);
}
