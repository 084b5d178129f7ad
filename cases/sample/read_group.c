#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_READ with PERF_FORMAT_GROUP on a sampling leader gives {nr, {value, id}[nr]} for the whole group, leader first",
	.ref = "perf_event_open(2), read_format with PERF_FORMAT_GROUP; PERF_RECORD_SAMPLE \"v ... values for all events in the group\"",
	.covers = "sample.READ read_format.GROUP read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr mattr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pa_ring r;
	struct pa_sample s;
	uint64_t lid = 0, mid = 0;
	int lfd, mfd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.disabled = 1;
	lfd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	mattr.disabled = 0;
	mattr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	mfd = ASSERT_OPEN(&mattr, 0, -1, lfd, 0);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ID, &lid));
	ASSERT_OK(ioctl(mfd, PERF_EVENT_IOC_ID, &mid));
	pa_ring_map(&r, lfd, 4);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	ASSERT_EQ(s.var.group_nr, 2u);
	EXPECT_GE(s.read[1], 1u);	/* leader value */
	EXPECT_EQ(s.read[2], lid);
	EXPECT_EQ(s.read[4], mid);
}
