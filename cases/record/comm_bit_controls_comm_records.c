#include "perfabi.h"

#include <sys/prctl.h>

PERFABI_CASE(
	.assertion = "attr.comm: renaming the task (prctl PR_SET_NAME) produces one PERF_RECORD_COMM in an event with comm set and none in an otherwise identical event without it",
	.ref = "perf_event_open(2), comm: \"enables tracking of process command name as modified by the exec(2) and prctl(PR_SET_NAME) system calls\"; kernel/events/core.c perf_event_comm_match()",
	.covers = "attr.comm record.COMM",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_ring ra, rb;
	int fa, fb;

	a.disabled = b.disabled = 0;
	a.comm = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 4);
	pa_ring_map(&rb, fb, 4);
	ASSERT_OK(prctl(PR_SET_NAME, "pa-attr-comm", 0, 0, 0));
	EXPECT_EQ(pa_ring_count(&ra, PERF_RECORD_COMM), 1);
	EXPECT_EQ(pa_ring_count(&rb, PERF_RECORD_COMM), 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
