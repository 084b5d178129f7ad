#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a PERF_TYPE_SOFTWARE config past the last one the kernel "
		     "knows (PERF_COUNT_SW_MAX of that kernel) fails with ENOENT",
	.ref = "perf_event_open(2), ENOENT \"the type setting is not valid\"; "
	       "kernel/events/core.c perf_swevent_init(): event_id >= "
	       "PERF_COUNT_SW_MAX -> -ENOENT",
	.covers = "type.SOFTWARE attr.config errno.ENOENT",
	.probe = pa_probe_self_perf,
) {
	uint64_t max;
	struct perf_event_attr attr;

	/* each kernel's PERF_COUNT_SW_MAX: CGROUP_SWITCHES (11) came in 5.13,
	 * BPF_OUTPUT (10) in 4.4, DUMMY (9) in 3.12 */
	if (pa_since("5.13", "PERF_COUNT_SW_CGROUP_SWITCHES is the last software config"))
		max = PERF_COUNT_SW_CGROUP_SWITCHES + 1;
	else if (pa_since("4.4", "PERF_COUNT_SW_BPF_OUTPUT is the last software config"))
		max = PERF_COUNT_SW_BPF_OUTPUT + 1;
	else
		max = PERF_COUNT_SW_DUMMY + 1;
	attr = pa_sw_attr(max);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	attr = pa_sw_attr(max - 1);	/* the last one opens */
	if (max - 1 == PERF_COUNT_SW_CGROUP_SWITCHES || max - 1 == PERF_COUNT_SW_DUMMY ||
	    max - 1 == PERF_COUNT_SW_BPF_OUTPUT) {
		int fd = EXPECT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd >= 0)
			close(fd);
	}
}
