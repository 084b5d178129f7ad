#include "perfabi.h"

#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_TID puts {u32 pid, tid} in the sample: the process and thread id of the sampled task",
	.ref = "perf_event_open(2), MMAP layout, PERF_RECORD_SAMPLE: \"u32 pid, tid; if PERF_SAMPLE_TID\"",
	.covers = "sample.TID attr.sample_type record.SAMPLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(4);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.pid, (uint32_t)getpid());
	EXPECT_EQ(s.tid, (uint32_t)syscall(SYS_gettid));
}
