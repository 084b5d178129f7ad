#include "perfabi.h"

#include <sys/ioctl.h>

#define N_PAGES 8

/*
 * The sampling event is the group's second member, not its leader; the
 * leader counts the same page faults without sampling. With every
 * read_format bit the sample's read block is
 *	{nr, time_enabled, time_running,
 *	 leader {value, id, lost}, member {value, id, lost}}
 * (kernel/events/core.c perf_output_read_group(): the leader is read
 * first even when another member took the sample). The member samples
 * every fault, so its value in the k-th sample is exactly k; the leader
 * saw the same faults, the current one either already or not yet. No
 * ring is full, so both lost counts are 0. A software group always runs:
 * time_enabled == time_running, never decreasing, never above the times
 * a read() of the group gives afterwards.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_READ with PERF_FORMAT_GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|LOST on a sampling member that is not the leader gives {nr, time_enabled, time_running, then {value, id, lost} for the leader first and then each member}: the leader's current count, the sampler's own exact count, each id, lost 0",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE \"v: If PERF_SAMPLE_READ is enabled, an additional u64 value is written\" as read_format describes (PERF_FORMAT_GROUP layout, PERF_FORMAT_LOST since Linux 6.0); kernel/events/core.c perf_output_read_group()",
	.covers = "sample.READ read_format.GROUP read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID read_format.LOST",
	.min_kernel = "6.0",
	.probe = pa_probe_self_perf,
) {
	uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
		       PERF_FORMAT_LOST;
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr mattr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	uint64_t lid = 0, mid = 0, last_t = 0, rv[9];
	struct pa_ring r;
	struct pa_sample s;
	int lfd, mfd, n = 0;

	lattr.read_format = fmt;
	lattr.disabled = 1;
	lfd = ASSERT_OPEN(&lattr, 0, -1, -1, 0);
	mattr.read_format = fmt;
	mattr.sample_type = PERF_SAMPLE_READ;
	mattr.disabled = 0;	/* runs when the leader is enabled */
	mfd = ASSERT_OPEN(&mattr, 0, -1, lfd, 0);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ID, &lid));
	ASSERT_OK(ioctl(mfd, PERF_EVENT_IOC_ID, &mid));
	ASSERT_NE(lid, mid);
	pa_ring_map(&r, mfd, 8);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(N_PAGES);
	/* perf's clock may advance only at ticks (no usable TSC): a sample
	 * within the first tick rightly has time_enabled 0, so > 0 is checked
	 * on the group's read once the clock moved */
	pa_work_until_ctx_time_moves();
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(lfd, rv, 9);
	EXPECT_GT(rv[1], 0u);

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&mattr, h, &s))
			pa_abort();
		n++;
		ASSERT_EQ(s.var.group_nr, 2u);
		EXPECT_EQ(s.read[1], s.read[2]);	/* enabled == running */
		EXPECT_GE(s.read[1], last_t);
		EXPECT_LE(s.read[1], rv[1]);
		last_t = s.read[1];
		/* leader: this fault counted already or not yet */
		EXPECT_LE(s.read[3], (uint64_t)n);
		EXPECT_GE(s.read[3] + 1, (uint64_t)n);
		EXPECT_EQ(s.read[4], lid);
		EXPECT_EQ(s.read[5], 0u);
		/* the sampler, period 1: its n-th sample holds n */
		EXPECT_EQ(s.read[6], (uint64_t)n);
		EXPECT_EQ(s.read[7], mid);
		EXPECT_EQ(s.read[8], 0u);
	}
	EXPECT_GE(n, N_PAGES);
	/* the read() of the group: same layout, both counted every fault */
	EXPECT_EQ(rv[0], 2u);
	EXPECT_EQ(rv[1], rv[2]);
	EXPECT_EQ(rv[3], (uint64_t)n);
	EXPECT_EQ(rv[4], lid);
	EXPECT_EQ(rv[6], (uint64_t)n);
	EXPECT_EQ(rv[7], mid);
	EXPECT_EQ(rv[5], 0u);
	EXPECT_EQ(rv[8], 0u);
	pa_diag("%d samples, enabled %llu ns", n, (unsigned long long)rv[1]);
	pa_ring_unmap(&r);
	close(mfd);
	close(lfd);
}
