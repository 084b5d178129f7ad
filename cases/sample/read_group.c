#include "perfabi.h"

#include <sys/ioctl.h>

#define N_PAGES 4

/*
 * The leader samples every page fault; the member counts the same page
 * faults without sampling. Every sample carries both: the leader's value
 * goes up by exactly one per sample, and the member, counting the same
 * faults, is at the leader's value or one behind it (the two events see
 * each fault one after the other, and the sample is written when the
 * leader's count moves), never anything else. A kernel that writes only
 * the leader, repeats the leader's value in the member's place or swaps
 * values and ids fails.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_READ with PERF_FORMAT_GROUP on a sampling leader gives {nr, {value, id}[nr]} for the whole group, leader first: each sample holds the leader's count so far and the member's own count of the same events",
	.ref = "perf_event_open(2), read_format with PERF_FORMAT_GROUP; PERF_RECORD_SAMPLE \"v ... values for all events in the group\"",
	.covers = "sample.READ read_format.GROUP read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr mattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	const struct perf_event_header *h;
	uint64_t lid = 0, mid = 0, last = 0, rv[5];
	struct pa_ring r;
	struct pa_sample s;
	int lfd, mfd, n = 0;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.disabled = 1;
	lfd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	mattr.disabled = 0;
	mattr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	mfd = ASSERT_OPEN(&mattr, 0, -1, lfd, 0);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ID, &lid));
	ASSERT_OK(ioctl(mfd, PERF_EVENT_IOC_ID, &mid));
	ASSERT_NE(lid, mid);
	pa_ring_map(&r, lfd, 8);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(N_PAGES);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(lfd, rv, 5);

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		n++;
		ASSERT_EQ(s.var.group_nr, 2u);
		EXPECT_EQ(s.read[1], last + 1);		/* leader value */
		EXPECT_EQ(s.read[2], lid);
		EXPECT_GE(s.read[3] + 1, s.read[1]);	/* member value */
		EXPECT_LE(s.read[3], s.read[1]);
		EXPECT_EQ(s.read[4], mid);
		last = s.read[1];
	}
	EXPECT_GE(n, N_PAGES);
	/* the last sample saw the leader's final count (period 1) */
	EXPECT_EQ(last, rv[1]);
	EXPECT_EQ(rv[3], rv[1]);	/* both counted the same faults */
	pa_diag("%d samples, leader %llu, member %llu", n,
		(unsigned long long)rv[1], (unsigned long long)rv[3]);
	pa_ring_unmap(&r);
	close(mfd);
	close(lfd);
}
