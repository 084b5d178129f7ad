#include "perfabi.h"

#include <sys/ioctl.h>

#define FREQ 300	/* samples/s: NSEC_PER_SEC / 300 = 3333333 ns */

/*
 * cpu-clock and task-clock are driven by an hrtimer, whose rate is fixed:
 * with freq set the kernel turns sample_freq into a period once, at open
 * (kernel/events/core.c perf_swevent_init_hrtimer(): sample_period =
 * NSEC_PER_SEC / sample_freq, and freq cleared), instead of adjusting the
 * period at each overflow as it does for other events (attr/
 * freq_adapts_period). Every sample's PERIOD is that quotient, from the
 * first sample on, the integer division's truncation included.
 */
PERFABI_CASE(
	.assertion = "with attr.freq on a task-clock event (an hrtimer-driven software clock) the period is fixed at NSEC_PER_SEC / sample_freq: every sample's PERF_SAMPLE_PERIOD is exactly 1000000000 / 300 = 3333333 ns, the first one included",
	.ref = "perf_event_open(2), freq and sample_freq, PERF_SAMPLE_PERIOD; kernel/events/core.c perf_swevent_init_hrtimer(): \"Since hrtimers have a fixed rate, we can do a static freq->period mapping\"",
	.covers = "attr.freq attr.sample_freq sample.PERIOD",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 0);
	long max_rate = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	int fd, n = 0;

	if (max_rate < FREQ)
		pa_skip("kernel.perf_event_max_sample_rate is %ld, below %d", max_rate, FREQ);
	attr.freq = 1;
	attr.sample_freq = FREQ;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* 3.3 ms of task time per sample: wait for the first, then ~9 more */
	ASSERT_TRUE(pa_ring_spin_for_data(&r, 2000));
	pa_work_cpu_ms(30);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		n++;
		EXPECT_EQ(s.period, 1000000000u / FREQ);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
	}
	EXPECT_GE(n, 1);
	pa_diag("%d samples", n);
	pa_ring_unmap(&r);
	close(fd);
}
