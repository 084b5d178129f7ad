#include "perfabi.h"

/*
 * A kernel callchain shows kernel addresses. "perf/core: Check kernel
 * access when kernel callchains are requested" (a4573a3838ae, mainline
 * 7.3; stable 7.2.10, 6.18.56, 6.12.113) treats PERF_SAMPLE_CALLCHAIN
 * without exclude_callchain_kernel like counting the kernel:
 * perf_allow_kernel() decides, even though the event itself has
 * exclude_kernel set. Before that check the open succeeds for any identity.
 * Where the identity may measure the kernel the open succeeds on every
 * kernel; elsewhere the kernel's version says which rule applies
 * (pa_since_kernel_access_callchain()), and a branch that took the change in
 * a release whose number is not known here SKIPs with that reason.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN with attr.exclude_callchain_kernel clear (exclude_kernel set) opens where the caller may measure the kernel; where it may not (paranoid > 1 without CAP_PERFMON) it fails with EACCES on kernels with the kernel-callchain access check (7.3; stable 7.2.10, 6.18.56, 6.12.113) and opens before it",
	.ref = "a4573a3838ae \"perf/core: Check kernel access when kernel callchains are requested\" (mainline 7.3; stable 7.2.10, 6.18.56, 6.12.113); kernel/events/core.c (6.12.117) perf_event_open(): \"(attr.sample_type & PERF_SAMPLE_CALLCHAIN) && !attr.exclude_callchain_kernel\" -> perf_allow_kernel() (-EACCES); perf_event_open(2), perf_event_paranoid",
	.covers = "attr.exclude_callchain_kernel sample.CALLCHAIN errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int want = pa_expected_errno(PA_NEED_KERNEL), fd, since;
	/* Debian's paranoid 3 refuses everything: no version question. */
	bool all_refused = pa_expected_errno(PA_NEED_SELF) != 0;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 0;
	if (want && !all_refused) {
		since = pa_since_kernel_access_callchain();
		if (since < 0)
			pa_skip("kernel %d.%d.%d: from which release its stable branch has the kernel-callchain access check (a4573a3838ae), if at all, is not known here",
				pa_kernel().major, pa_kernel().minor, pa_kernel().patch);
		if (!since)
			want = 0;
	}
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
