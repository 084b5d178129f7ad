#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "a sample taken in the kernel (context-switches, exclude_kernel = 0) has a callchain that starts with PERF_CONTEXT_KERNEL and kernel addresses, then PERF_CONTEXT_USER and the user part; counting the kernel needs paranoid < 2 or CAP_PERFMON (EACCES otherwise)",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE nr, ips[nr]; include/uapi/linux/perf_event.h enum perf_callchain_context; kernel/events/callchain.c get_perf_callchain()",
	.alone = true,
	.covers = "sample.CALLCHAIN sw.CONTEXT_SWITCHES attr.exclude_kernel",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	struct timespec ts = { 0, 1000000 };
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	int fd, want = pa_expected_errno(PA_NEED_KERNEL), user_at = -1;

	attr.exclude_kernel = 0;
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
	h = pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_KERNEL);
	ASSERT_GE(s.var.callchain_nr, 2u);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_KERNEL);
	EXPECT_GE(s.callchain[1], (uint64_t)1 << 63);	/* a kernel address */
	for (uint64_t i = 1; i < s.var.callchain_nr; i++)
		if (s.callchain[i] == PERF_CONTEXT_USER)
			user_at = (int)i;
	EXPECT_GT(user_at, 1);
}
