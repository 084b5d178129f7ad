#include "perfabi.h"

#define PA_CONTEXT_USER_DEFERRED ((uint64_t)-640)

struct deferred_rec {
	struct perf_event_header h;
	uint64_t cookie, nr;
	uint64_t ips[];
};

PERFABI_CASE(
	.assertion = "attr.defer_callchain: the user part of a sample's callchain is deferred to the return to user space; the sample's callchain ends with PERF_CONTEXT_USER_DEFERRED and a cookie, and a PERF_RECORD_CALLCHAIN_DEFERRED {cookie, nr, ips[nr]} with that cookie carries the user ips",
	.ref = "include/uapi/linux/perf_event.h (6.19) defer_callchain, PERF_CONTEXT_USER_DEFERRED, PERF_RECORD_CALLCHAIN_DEFERRED: \"This user callchain capture was deferred until shortly before returning to user space\"",
	.covers = "attr.defer_callchain record.CALLCHAIN_DEFERRED",
	.min_kernel = "6.19",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	uint64_t cookie = 0;
	int fd, got_sample = 0, matched = 0;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;	/* a user callchain: no kernel access needed (a4573a3838ae) */
	attr.defer_callchain = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);
	pa_touch_pages(1);
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE && !got_sample) {
			if (!pa_sample_parse(&attr, h, &s))
				pa_abort();
			for (uint64_t i = 0; i + 1 < s.var.callchain_nr; i++)
				if (s.callchain[i] == PA_CONTEXT_USER_DEFERRED) {
					cookie = s.callchain[i + 1];
					got_sample = 1;
				}
		} else if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED && got_sample) {
			const struct deferred_rec *d = (const void *)h;

			if (d->cookie != cookie)
				continue;
			matched++;
			EXPECT_GE(d->nr, 1u);
			EXPECT_EQ((uint64_t)h->size, sizeof(*d) + 8 * d->nr);
		}
	}
	EXPECT_TRUE(got_sample);
	EXPECT_GE(matched, 1);
}
