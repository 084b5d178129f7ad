#include "perfabi.h"

#include <linux/hw_breakpoint.h>

/*
 * An execute breakpoint on target() counts exactly the calls to it: the
 * forked child calls it N_CALLS times, then execs. remove_on_exec takes
 * the inherited event out of the child at the exec; perf_child_detach()
 * -> sync_child_event() writes PERF_RECORD_READ {pid, tid, value, id} for
 * the child (inherit_stat) for the child with the child's count alone.
 */
#define N_CALLS 7

__attribute__((noinline)) static void target(void)
{
	__asm__ volatile("" ::: "memory");
}

static void call_and_exec(void)
{
	for (int i = 0; i < N_CALLS; i++)
		target();
	execl("/bin/true", "true", (char *)NULL);
	_exit(3);
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat with remove_on_exec: when the inherited event leaves a child at its exec, PERF_RECORD_READ {pid, tid, value, id} reports exactly the child's own count (N breakpoint hits) with pid and tid the child and id the parent event's id",
	.ref = "perf_event_open(2), inherit_stat; PERF_RECORD_READ {pid, tid, struct read_format values}; kernel/events/core.c perf_event_remove_on_exec() -> perf_event_exit_event() -> sync_child_event() -> perf_event_read_event(); remove_on_exec (5.13)",
	.alone = true,
	.covers = "attr.inherit_stat record.READ attr.remove_on_exec read_format.ID",
	.min_kernel = "5.13",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr attr;
	const struct pa_read_rec *rr;
	uint64_t id = 0;
	pid_t child;

	if (access("/bin/true", X_OK))
		pa_skip("/bin/true is not there to exec");
	attr = pa_bp_attr(HW_BREAKPOINT_X, (const void *)target, sizeof(long));
	attr.remove_on_exec = 1;
	rr = pa_inherit_stat_read_record(&attr, call_and_exec, &child, &id);
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->h.size, sizeof(*rr));
	EXPECT_EQ(rr->h.misc, 0);
	EXPECT_EQ(rr->pid, (uint32_t)child);
	EXPECT_EQ(rr->tid, (uint32_t)child);
	EXPECT_EQ(rr->value, (uint64_t)N_CALLS);
	EXPECT_EQ(rr->id, id);
}
