#include "perfabi.h"

/*
 * PERF_SAMPLE_REGS_INTR needs no privilege beyond the event's own and no
 * PMU capability for the basic registers, so a software event accepts it.
 * The one documented refusal is kernel lockdown in confidentiality mode
 * (security_locked_down(LOCKDOWN_PERF)): EPERM there.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_INTR with a valid sample_regs_intr mask is accepted on a software event (EPERM only under confidentiality lockdown)",
	.ref = "perf_event_open(2), sample_regs_intr (since 3.19); kernel/events/core.c perf_event_open(): REGS_INTR -> security_locked_down(LOCKDOWN_PERF)",
	.covers = "attr.sample_regs_intr sample.REGS_INTR",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int want = pa_lockdown_confidentiality() ? EPERM : 0;
	int fd;

	if (!pa_regs_valid_mask())
		pa_skip("no perf_regs.h layout known for this architecture");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = pa_regs_valid_mask();
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
