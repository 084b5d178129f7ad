#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

struct read_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t value, id;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(4);
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: when a child with an inherited event exits, PERF_RECORD_READ {pid, tid, read_format values} reports the child's own count, with read_format ID the original event's id",
	.ref = "perf_event_open(2), inherit_stat: \"saves event counts on context switch for inherited tasks\"; PERF_RECORD_READ; c418d8b4d7a4 \"perf/core: Fix missing read event generation on task exit\": \"For events with inherit_stat enabled, a read event will be generated to collect per task event counts on task exit\"",
	.covers = "attr.inherit_stat record.READ attr.inherit",
	.xfail = {
		.from = "5.13",
		.to = "6.18.2",
		.why = "the child context is marked TASK_TOMBSTONE before sync_child_event() runs, so no PERF_RECORD_READ is generated at exit (regressed by ef54c1a476ae \"perf: Rework perf_event_exit_event()\"); fixed in 6.19 and, by the stable backport, 6.18.2 [unconfirmed which other stable trees have it]",
		.fix = "c418d8b4d7a4",
	},
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS), extra;
	const struct perf_event_header *h;
	const struct read_rec *rr = NULL;
	struct pa_ring r;
	uint64_t id = 0;
	int fd, st;
	pid_t child;

	/* A non-inherited event of ours keeps the child's context from
	 * being a clone of ours (inherit_task_group(): inherited_all = 0),
	 * so perf_event_context_sched_out() never swaps the two and the
	 * child runs with its inherited event. */
	extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	pin(0);		/* an inherited event is mmappable only bound to a CPU */
	attr.disabled = 0;
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.read_format = PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, 0, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		pa_touch_pages(16);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	while ((h = pa_ring_find(&r, PERF_RECORD_READ))) {
		rr = (const struct read_rec *)h;
		if (rr->pid == (uint32_t)child)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->size, sizeof(*rr));
	EXPECT_EQ(rr->tid, (uint32_t)child);
	EXPECT_GE(rr->value, 16u);
	EXPECT_EQ(rr->id, id);
}
