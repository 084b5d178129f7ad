#include "perfabi.h"

#include <sched.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CPU gives {u32 cpu, res}: the CPU the sample was taken on, and a zero reserved word",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"cpu, res: If PERF_SAMPLE_CPU is enabled, this is a 32-bit value indicating which CPU was being used, in addition to a reserved (unused) 32-bit value\"",
	.alone = true,
	.covers = "sample.CPU",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd, cpu;

	/* Pin to the CPU we are on, so the sample's CPU is known. */
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	attr.sample_type = PERF_SAMPLE_CPU;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.cpu, (uint32_t)cpu);
	EXPECT_EQ(s.res, 0u);
}
