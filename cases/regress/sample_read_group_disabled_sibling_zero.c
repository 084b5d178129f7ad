#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * A sampling leader with PERF_SAMPLE_READ | PERF_FORMAT_GROUP writes every
 * member's count into each sample. Before 9e5b127d6f33 the sample path
 * called pmu->read() on each sibling whatever its state; it now reads only
 * ACTIVE members (perf_pmu_read()). A cpu-clock sibling that was never
 * enabled (state OFF) must therefore appear with its true count, 0: the
 * old read() of a never-started cpu-clock added local_clock() - 0 to it.
 *
 * Leader: page faults, period 1, so sample k carries leader count k.
 * Fields are all checked: pid, tid, nr, both values and both ids.
 */
#define PAGES	16

struct grp_sample {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr;
	struct { uint64_t value, id; } v[2];
};

PERFABI_CASE(
	.assertion = "in a PERF_SAMPLE_READ group sample a sibling that is disabled (never enabled) reports count 0; only active members are read, so every sample shows leader count k for its k-th fault and the sibling's value 0 with the right ids",
	.ref = "\"perf/core: Fix perf_output_read_group()\" 9e5b127d6f33 (v4.17); kernel/events/core.c perf_output_read_group() / perf_pmu_read(); perf_event_open(2) PERF_SAMPLE_READ, read_format",
	.covers = "sample.READ read_format.GROUP read_format.ID",
	.fix = { .commit = "9e5b127d6f33", .subject = "perf/core: Fix perf_output_read_group()", .release = "4.17" },
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr sib = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	const struct perf_event_header *h;
	uint64_t lid, sid, g[5], k = 0;
	struct pa_ring r;
	int leader, sfd;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	sib.disabled = 1;	/* stays OFF for the whole case */
	sib.read_format = attr.read_format;
	sfd = ASSERT_OPEN(&sib, 0, -1, leader, 0);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ID, &lid));
	ASSERT_OK(ioctl(sfd, PERF_EVENT_IOC_ID, &sid));
	pa_ring_map(&r, leader, 64);
	pa_ring_prefault(&r);

	/* enable the leader alone: the sibling keeps its own OFF state */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(PAGES);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		const struct grp_sample *s = (const void *)h;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		k++;
		ASSERT_EQ(h->size, sizeof(*s));
		EXPECT_EQ(s->pid, getpid());
		EXPECT_EQ(s->tid, syscall(SYS_gettid));
		EXPECT_EQ(s->nr, 2);
		EXPECT_EQ(s->v[0].value, k);
		EXPECT_EQ(s->v[0].id, lid);
		if (s->v[1].value)
			pa_diag("sample %llu: the disabled sibling was read",
				(unsigned long long)k);
		EXPECT_EQ(s->v[1].value, 0);
		EXPECT_EQ(s->v[1].id, sid);
	}
	pa_diag("%llu samples", (unsigned long long)k);
	EXPECT_GE(k, PAGES);
	/* read() of the group agrees: the sibling never counted */
	pa_read_u64(sfd, g, 5);
	EXPECT_EQ(g[0], 2);
	EXPECT_EQ(g[1], k);
	EXPECT_EQ(g[2], lid);
	EXPECT_EQ(g[3], 0);
	EXPECT_EQ(g[4], sid);
	pa_ring_unmap(&r);
	close(sfd);
	close(leader);
}
