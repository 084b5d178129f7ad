#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.exclude_callchain_user drops the user part of callchains: a user-mode page-fault sample of an exclude_kernel event then has an empty callchain (nr = 0)",
	.ref = "perf_event_open(2), exclude_callchain_user (3.7): \"Do not include user callchain\"; kernel/events/core.c perf_callchain()",
	.covers = "attr.exclude_callchain_user sample.CALLCHAIN",
	.min_kernel = "3.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	/* Only the kernel part may remain: since "perf/core: Check kernel
	 * access when kernel callchains are requested" (a4573a3838ae, 7.3,
	 * stable 7.2.10, 6.18.56, 6.12.113) that open needs
	 * perf_allow_kernel(), a rule
	 * sample/exclude_callchain_kernel_clear_kernel_access_by_version checks.
	 * This case checks the content wherever the open is allowed. */
	if (pa_expected_errno(PA_NEED_KERNEL) && pa_since_kernel_access_callchain() != 0)
		pa_skip("kernel callchains need kernel access on this kernel (a4573a3838ae, or not "
			"known) and this context has none (%s); the content is checked where it is allowed",
			pa_context_string());
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_user = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.var.callchain_nr, 0u);
}
