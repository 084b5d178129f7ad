#include "perfabi.h"

/*
 * branch_sample_type is validated only when PERF_SAMPLE_BRANCH_STACK is in
 * sample_type; otherwise even undefined bits are ignored: a period-1
 * page-fault sampler with every bit set writes exactly the samples an
 * otherwise identical sampler with branch_sample_type 0 writes, one
 * {header, ip} record (16 bytes) per fault, 16 for 16 fresh pages (exact
 * once the measured path has run once; period-1 software samples are
 * never throttled).
 */
#define PAGES	16

static void expect_samples(int fd, struct pa_ring *r)
{
	const struct perf_event_header *h;
	int n = 0;

	EXPECT_EQ(pa_count_over(fd, pa_work_pages, PAGES), PAGES);
	while ((h = pa_ring_next(r))) {
		EXPECT_EQ(h->type, PERF_RECORD_SAMPLE);
		EXPECT_EQ(h->size, sizeof(struct perf_event_header) + sizeof(uint64_t));
		n++;
	}
	EXPECT_EQ(n, PAGES);
}

PERFABI_CASE(
	.assertion = "without PERF_SAMPLE_BRANCH_STACK, branch_sample_type is ignored, even with undefined bits set: the event samples exactly like the same event with branch_sample_type 0 (one 16-byte {header, ip} sample per page fault, 16 for 16 touched pages)",
	.ref = "perf_event_open(2), branch_sample_type: \"If PERF_SAMPLE_BRANCH_STACK is enabled, then this specifies what branches to include\"; kernel/events/core.c perf_copy_attr()",
	.covers = "attr.branch_sample_type",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr b;
	struct pa_ring ra, rb;
	int fa, fb;

	a.disabled = 1;
	a.sample_type = PERF_SAMPLE_IP;
	b = a;
	a.branch_sample_type = ~0ULL;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 8);
	pa_ring_map(&rb, fb, 8);
	/* warm up the measured path, then start from empty rings */
	pa_count_over(fa, pa_work_pages, 1);
	pa_count_over(fb, pa_work_pages, 1);
	pa_ring_count(&ra, PERF_RECORD_SAMPLE);
	pa_ring_count(&rb, PERF_RECORD_SAMPLE);
	pa_diag("branch_sample_type = ~0:");
	expect_samples(fa, &ra);
	pa_diag("branch_sample_type = 0:");
	expect_samples(fb, &rb);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
