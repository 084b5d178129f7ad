#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_ID and PERF_SAMPLE_STREAM_ID of a
 * hardware sample: perf_prepare_sample()/perf_sample_data ids come from
 * primary_event_id() (the event's id, which PERF_EVENT_IOC_ID returns:
 * primary_event_id() too) and event->id for the stream. For an event that
 * is neither inherited nor a clone all three are the id IOC_ID gives. A
 * user-only PERF_COUNT_HW_CPU_CYCLES sampler over 8.5 periods: exactly 8
 * samples under the exact PMU (hw/sample_period_cycles_exact_samples gives
 * the rule), each with identifier == id == stream_id == IOC_ID, the
 * identifier first in the record.
 */
#define P	1200000ULL
#define M	8

PERFABI_CASE(
	.assertion = "each of the 8 samples of a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M, 8.5 periods) carries "
		     "PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_ID and PERF_SAMPLE_STREAM_ID equal to the id PERF_EVENT_IOC_ID returns",
	.ref = "perf_event_open(2), PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_IDENTIFIER, PERF_EVENT_IOC_ID; kernel/events/core.c "
	       "perf_event_header__init_id()/__perf_event_header__init_id() (primary_event_id(), event->id), perf_event_id()",
	.covers = "hw.CPU_CYCLES sample.IDENTIFIER sample.ID sample.STREAM_ID ioctl.ID type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t c, id;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID);
	fd = pa_hw_open_sampler(&a);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		EXPECT_EQ(s.identifier, id);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.stream_id, id);
	}
	pa_diag("IOC_ID %llu", (unsigned long long)id);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, c, P, M);
	pa_ring_unmap(&r);
	close(fd);
}
