#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The man page calls PERF_FLAG_FD_OUTPUT "broken since Linux 2.6.35".
 * For per-task events it was: perf_event_set_output() compared the new
 * event's ctx, not yet set at open time, and refused with EINVAL (since
 * c3f00c70276d). 24d3ae2f37d8 (6.3, and stable) compares hw.target
 * instead; since then the flag works when group_fd is an event with a
 * mapped ring on the same task and CPU: the new event's samples land in
 * that ring. With PERF_FLAG_FD_NO_GROUP the new event is not grouped.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_FD_OUTPUT with group_fd naming an mmapped per-task event (same task and cpu): the new event's samples are written into group_fd's ring buffer (since 24d3ae2f37d8, 6.3 and stable; before it the open failed with EINVAL, the man page's \"broken since 2.6.35\")",
	.ref = "perf_event_open(2), flags: PERF_FLAG_FD_OUTPUT \"re-routes the event's sampled output to ... the mmap buffer of the event specified by group_fd\"; kernel/events/core.c perf_event_open() -> perf_event_set_output(); commit 24d3ae2f37d8",
	.covers = "flag.FD_OUTPUT flag.FD_NO_GROUP arg.flags",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct perf_event_attr b = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	uint64_t id_b = 0;
	struct pa_ring r;
	int fa, fb, n = 0, other = 0;

	a.sample_type = b.sample_type = PERF_SAMPLE_IDENTIFIER;
	b.disabled = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fa, 8);
	if (!pa_since_set_output_same_task()) {
		EXPECT_OPEN_FAIL(&b, 0, -1, fa, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, EINVAL);
		return;
	}
	fb = ASSERT_OPEN(&b, 0, -1, fa, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ID, &id_b));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (*(const uint64_t *)(h + 1) == id_b)
			n++;
		else
			other++;
	}
	EXPECT_GE(n, 16);
	EXPECT_EQ(other, 0);
}
