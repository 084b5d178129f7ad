#include "perfabi.h"

#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "attr.task: a fork by the monitored task produces a PERF_RECORD_FORK in an event with task set and no FORK or EXIT record in an otherwise identical event without it",
	.ref = "perf_event_open(2), task: \"If this bit is set, then fork/exit notifications are included in the ring buffer\"; kernel/events/core.c perf_event_task_match()",
	.covers = "attr.task record.FORK",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	struct pa_ring ra, rb;
	int fa, fb, st, other = 0;
	pid_t pid;

	a.disabled = b.disabled = 0;
	a.task = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 4);
	pa_ring_map(&rb, fb, 4);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_EQ(pa_ring_count(&ra, PERF_RECORD_FORK), 1);
	while ((h = pa_ring_next(&rb)))
		other += h->type == PERF_RECORD_FORK || h->type == PERF_RECORD_EXIT;
	EXPECT_EQ(other, 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
