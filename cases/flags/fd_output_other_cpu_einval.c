#include "perfabi.h"

/*
 * perf_event_set_output() refuses cross-CPU buffers: the target ring is
 * mapped, but belongs to an event of another cpu (-1 vs 0).
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_FD_OUTPUT into an mmapped event whose cpu differs from the new event's (-1 vs 0) fails with EINVAL",
	.ref = "kernel/events/core.c perf_event_set_output(): \"Don't allow cross-cpu buffers\" -> -EINVAL; perf_event_open(2), PERF_FLAG_FD_OUTPUT",
	.covers = "flag.FD_OUTPUT errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct perf_event_attr b = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	int fa = ASSERT_OPEN(&a, 0, -1, -1, 0);

	pa_ring_map(&r, fa, 1);
	EXPECT_OPEN_FAIL(&b, 0, 0, fa, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, EINVAL);
	/* same cpu (and task): accepted where per-task FD_OUTPUT works */
	if (pa_since_set_output_same_task())
		close(ASSERT_OPEN(&b, 0, -1, fa, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP));
}
