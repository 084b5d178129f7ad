#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_READ puts the read_format block of the sampled event in the sample: {value, time_enabled, time_running, id} with id = PERF_EVENT_IOC_ID and a value that counts the event",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"v: If PERF_SAMPLE_READ is enabled, a structure of type read_format is included which has values for all events in the group\"",
	.covers = "sample.READ attr.read_format read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	uint64_t id = 0;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	/* until perf's clock moved (it may advance only at ticks); the
	 * samples of the faults on the way are dropped */
	pa_work_until_ctx_time_moves();
	while (pa_ring_next(&r))
		;
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_GE(s.read[0], 1u);		/* value: at least this fault */
	EXPECT_GT(s.read[1], 0u);		/* enabled */
	EXPECT_LE(s.read[2], s.read[1]);	/* running <= enabled */
	EXPECT_EQ(s.read[3], id);
}
