#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "Finding: PERF_SAMPLE_ID in a sample taken by a group member is the member's own id (PERF_EVENT_IOC_ID of the member), not the group leader's id as the man page says",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"id: ... If the event is a member of an event group, the group leader ID is returned\"; kernel/events/core.c __perf_event_header__init_id(): data->id = primary_event_id(event) (the event's own id, or its inheritance parent's)",
	.covers = "sample.ID read_format.GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	uint64_t lid = 0, mid = 0;
	int lfd, mfd;

	lfd = ASSERT_OPEN(&lattr, 0, -1, -1, 0);
	attr.sample_type = PERF_SAMPLE_ID;
	mfd = ASSERT_OPEN(&attr, 0, -1, lfd, 0);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ID, &lid));
	ASSERT_OK(ioctl(mfd, PERF_EVENT_IOC_ID, &mid));
	pa_ring_map(&r, mfd, 4);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_NE(lid, mid);
	EXPECT_EQ(s.id, mid);
}
