#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_AUX with aux_sample_size on a member of an intel_pt group puts {size, data[size]} of AUX data in each sample, size <= aux_sample_size",
	.ref = "perf_event_open(2)/perf_event.h PERF_SAMPLE_AUX and aux_sample_size (5.5): \"u64 size; char data[size]; if PERF_SAMPLE_AUX\"",
	.covers = "sample.AUX attr.aux_sample_size",
	.min_kernel = "5.5",
	.pmu = "intel_pt",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr pt, attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 100000);
	struct pa_ring r, rm;
	struct pa_sample s;
	int lfd, mfd;

	pa_intel_pt_attr(&pt);
	lfd = ASSERT_OPEN(&pt, 0, -1, -1, 0);
	pa_ring_map(&r, lfd, 8);
	pa_ring_map_aux(&r, 16);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_AUX;
	attr.aux_sample_size = 4096;
	mfd = ASSERT_OPEN(&attr, 0, -1, lfd, 0);
	pa_ring_map(&rm, mfd, 8);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_TRUE(pa_ring_spin_for_data(&rm, 2000));
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pa_ring_sample(&rm, &attr, &s);
	/* PT traced this task all along: the sample carries trace data, at
	 * most aux_sample_size bytes, padded to 8 (an empty AUX part fails) */
	EXPECT_GT(s.var.aux_size, 0u);
	EXPECT_LE(s.var.aux_size, 4096u);
	EXPECT_EQ(s.var.aux_size % 8, 0u);
}
