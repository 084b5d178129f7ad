#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_PERIOD reports the sampling period in effect: sample_period for a fixed-period task-clock event (hrtimer driven, period >= 10us)",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"period: If PERF_SAMPLE_PERIOD is enabled, a 64-bit value indicating the current sampling period is written\"",
	.covers = "sample.PERIOD attr.sample_period",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 200000);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	/* 200us of task time per sample: 2 s of CPU time is ample */
	ASSERT_TRUE(pa_ring_spin_for_data(&r, 2000));
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.period, 200000u);
}
