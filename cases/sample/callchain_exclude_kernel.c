#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "attr.exclude_callchain_kernel drops the kernel part of callchains: a sample taken in the kernel (context-switches, exclude_kernel = 0) then has a callchain that starts with PERF_CONTEXT_USER; the event needs paranoid < 2 or CAP_PERFMON (EACCES otherwise)",
	.ref = "perf_event_open(2), exclude_callchain_kernel (3.7): \"Do not include kernel callchain\"; kernel/events/core.c perf_callchain()",
	.alone = true,
	.covers = "attr.exclude_callchain_kernel sample.CALLCHAIN",
	.min_kernel = "3.7",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	struct timespec ts = { 0, 1000000 };
	struct pa_ring r;
	struct pa_sample s;
	int fd, want = pa_expected_errno(PA_NEED_KERNEL);

	attr.exclude_kernel = 0;
	attr.exclude_callchain_kernel = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);
	/* a 1 ms sleep blocks (a context switch, a sample) unless its timer
	 * expired before the task slept, as under slow emulation: sleep again */
	for (int i = 0; i < 1000 && !pa_ring_head(&r); i++)
		ASSERT_OK(nanosleep(&ts, NULL));
	pa_ring_sample(&r, &attr, &s);
	ASSERT_GE(s.var.callchain_nr, 1u);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
	for (uint64_t i = 1; i < s.var.callchain_nr; i++)
		EXPECT_LT(s.callchain[i], PERF_CONTEXT_MAX);
}
