#include "perfabi.h"

/*
 * A kernel callchain shows kernel addresses. Stable 6.12.113 ("perf/core:
 * Check kernel access when kernel callchains are requested") treats
 * PERF_SAMPLE_CALLCHAIN without exclude_callchain_kernel like counting the
 * kernel: perf_allow_kernel() decides, even though the event itself has
 * exclude_kernel set. Before that check (and on 6.18.44) the open succeeds
 * for any identity. Where the identity may measure the kernel the open
 * succeeds on every kernel; elsewhere the result depends on whether the
 * check is there, which is known for the 6.12 branch only (SKIP elsewhere).
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN with attr.exclude_callchain_kernel clear (exclude_kernel set) opens where the caller may measure the kernel; where it may not (paranoid > 1 without CAP_PERFMON) it fails with EACCES on kernels with the kernel-callchain access check (6.12.113+) and opens before it",
	.ref = "stable 6.12.113 \"perf/core: Check kernel access when kernel callchains are requested\"; kernel/events/core.c (6.12.117) perf_event_open(): \"(attr.sample_type & PERF_SAMPLE_CALLCHAIN) && !attr.exclude_callchain_kernel\" -> perf_allow_kernel() (-EACCES); perf_event_open(2), perf_event_paranoid",
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
		since = pa_since_kernel_access_text_poke_callchain();
		if (since < 0)
			pa_skip("not known whether kernel %d.%d.%d checks kernel access for kernel callchains",
				pa_kernel().major, pa_kernel().minor, pa_kernel().patch);
		if (!since)
			want = 0;
	}
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
