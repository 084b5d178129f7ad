#include "perfabi.h"

/*
 * PERF_RECORD_TEXT_POKE shows kernel text changes. "perf: Require kernel
 * access for text poke events" (357e8a77a501, mainline 7.3; stable 7.2.10,
 * 6.18.56, 6.12.113, and queued for 6.6, 6.1, 5.15, 5.10) treats text_poke
 * like counting the kernel (perf_allow_kernel()) even on an event with
 * exclude_kernel set; before it any identity may open it. Where the
 * identity may measure the kernel the open succeeds on every kernel;
 * elsewhere the kernel's version says which rule applies, and a branch that
 * took the change in a release whose number is not known here SKIPs.
 */
PERFABI_CASE(
	.assertion = "attr.text_poke on a user-only dummy event opens where the caller may measure the kernel; where it may not (paranoid > 1 without CAP_PERFMON) it fails with EACCES on kernels with the text_poke access check (7.3; stable 7.2.10, 6.18.56, 6.12.113) and opens before it",
	.ref = "357e8a77a501 \"perf: Require kernel access for text poke events\" (mainline 7.3-rc6; stable 7.2.10, 6.18.56, 6.12.113); kernel/events/core.c (6.12.117) perf_event_open(): \"if (!attr.exclude_kernel || attr.text_poke || ...) perf_allow_kernel()\"; include/uapi/linux/perf_event.h text_poke (5.9, e17d43b93e54)",
	.covers = "attr.text_poke errno.EACCES",
	.min_kernel = "5.9",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int want = pa_expected_errno(PA_NEED_KERNEL), fd, since;
	/* Debian's paranoid 3 refuses everything: no version question. */
	bool all_refused = pa_expected_errno(PA_NEED_SELF) != 0;

	if (want && !all_refused) {
		since = pa_since_kernel_access_text_poke();
		if (since < 0)
			pa_skip("kernel %d.%d.%d: its stable branch took the text_poke access check (357e8a77a501) in a release whose number is not known here",
				pa_kernel().major, pa_kernel().minor, pa_kernel().patch);
		if (!since)
			want = 0;
	}
	attr.text_poke = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
