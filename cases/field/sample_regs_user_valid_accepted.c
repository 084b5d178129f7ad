#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_USER with a sample_regs_user mask of defined registers (SP, IP/PC) is accepted on a software event",
	.ref = "perf_event_open(2), sample_regs_user; kernel/events/core.c perf_copy_attr() -> perf_reg_validate()",
	.covers = "attr.sample_regs_user sample.REGS_USER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int fd;

	if (!pa_regs_valid_mask())
		pa_skip("no perf_regs.h layout known for this architecture");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = pa_regs_valid_mask();
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
