#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "For an inherited event, PERF_SAMPLE_ID is the original event's id in every sample while PERF_SAMPLE_STREAM_ID is the id of the event instance that took it: the parent's samples have stream_id = id, the child's a stream_id of its own",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: stream_id \"Unlike PERF_SAMPLE_ID the actual ID is returned\"; kernel/events/core.c __perf_event_header__init_id(): data->id = primary_event_id(event), data->stream_id = event->id",
	.alone = true,
	.covers = "sample.STREAM_ID sample.ID attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1), extra;
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	uint64_t id = 0, other = 0;
	int fd, cpu, st, found = 0;
	pid_t child;

	/* A non-inherited event of ours keeps the child's context from being
	 * a clone of ours, so perf_event_context_sched_out() never swaps
	 * the two: each process samples with its own event instance. */
	extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	/* An inherited event can only be mmapped when bound to a CPU. */
	cpu = sched_getcpu();
	ASSERT_OK(pa_pin_cpu(cpu));
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID;
	attr.inherit = 1;
	fd = ASSERT_OPEN(&attr, 0, cpu, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 16);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		pa_touch_pages(4);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.id, id);
		if (s.pid != (uint32_t)child) {
			EXPECT_EQ(s.stream_id, id);
			continue;
		}
		found++;
		EXPECT_NE(s.stream_id, id);
		if (!other)
			other = s.stream_id;
		EXPECT_EQ(s.stream_id, other);	/* one instance in the child */
	}
	EXPECT_GT(found, 0);
}
