#include "perfabi.h"

/*
 * watermark = 1, wakeup_watermark = 512 bytes on a page-fault sampler
 * (period 1, PERF_SAMPLE_IP: 16-byte records), one data page:
 *   - after 8 faults (a few incidental ones aside, <= 16 records = 256
 *     bytes) poll() must not see POLLIN;
 *   - after 56 more (>= 64 records = 1024 bytes) it must.
 * Fewer than 100 samples keeps under the per-tick throttle.
 */
PERFABI_CASE(
	.assertion = "with watermark set, a reader is woken (POLLIN) once more than wakeup_watermark bytes of records are written, not before",
	.ref = "perf_event_open(2), wakeup_events, wakeup_watermark: \"... or how many bytes (wakeup_watermark) happen before an overflow notification happens\"; kernel/events/ring_buffer.c perf_output_begin() watermark",
	.covers = "attr.wakeup_watermark attr.watermark",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	bool before, after;

	attr.sample_type = PERF_SAMPLE_IP;	/* 16-byte records */
	attr.watermark = 1;
	attr.wakeup_watermark = 512;
	pa_pollin_around_faults(&attr, 8, 56, &before, &after);
	EXPECT_FALSE(before);
	EXPECT_TRUE(after);
}
