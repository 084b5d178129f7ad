#include "perfabi.h"

/*
 * wakeup_events = 32 on a page-fault sampler (period 1, PERF_SAMPLE_IP: 16
 * bytes a record) with one data page. The default byte watermark is half
 * the data area (>= 128 records), far above what the case writes, so only
 * the event count can wake the reader:
 *   - after 8 faults (plus a few incidental ones) poll() must not see POLLIN;
 *   - after 56 more (>= 64 samples) it must.
 * Fewer than 100 samples keeps under the per-tick throttle (max_sample_rate
 * / HZ, at least 100 with the default rate and HZ <= 1000).
 */
PERFABI_CASE(
	.assertion = "with wakeup_events = N, a reader is woken (POLLIN) once N samples are written, not before",
	.ref = "perf_event_open(2), wakeup_events: \"This union sets how many samples (wakeup_events) ... happen before an overflow notification happens\"; kernel/events/core.c perf_output_sample() wakeup_events",
	.covers = "attr.wakeup_events",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	bool before, after;

	attr.sample_type = PERF_SAMPLE_IP;	/* 16-byte records */
	attr.wakeup_events = 32;
	pa_pollin_around_faults(&attr, 8, 56, &before, &after);
	EXPECT_FALSE(before);
	EXPECT_TRUE(after);
}
