#include "perfabi.h"

/*
 * A task event with context_switch writes PERF_RECORD_SWITCH at each
 * switch of its task: perf_event_task_sched_out() -> perf_event_switch()
 * with PERF_RECORD_MISC_SWITCH_OUT, and at the switch back in without it.
 * Every voluntary switch the kernel counts (ru_nvcsw) is such a switch out,
 * followed by a switch in before this task runs again, so there are at
 * least as many out records as voluntary switches, and exactly as many in
 * records as out records (the event was on from open, while the task ran).
 * A 2 ms sleep whose timer expired before the task slept does not switch:
 * the case sleeps until the kernel counted a switch.
 */
PERFABI_CASE(
	.assertion = "attr.context_switch on a task event: sleeping produces PERF_RECORD_SWITCH records, one with PERF_RECORD_MISC_SWITCH_OUT (switched out) for each voluntary switch the kernel counted and as many without (switched in); without sample_id_all they are a bare header",
	.ref = "perf_event_open(2), context_switch (4.3): \"generates PERF_RECORD_SWITCH ... PERF_RECORD_MISC_SWITCH_OUT\"; PERF_RECORD_SWITCH",
	.covers = "attr.context_switch record.SWITCH",
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	struct pa_ring r;
	int fd, out = 0, in = 0;
	long slept;

	attr.disabled = 0;
	attr.context_switch = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	slept = pa_sleep_until_vswitches(1);
	while ((h = pa_ring_next(&r))) {
		EXPECT_NE(h->type, (uint32_t)PERF_RECORD_SWITCH_CPU_WIDE);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		EXPECT_EQ(h->size, sizeof(*h));
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
	}
	pa_diag("%d out, %d in, %ld voluntary switches", out, in, slept);
	EXPECT_GE(out, slept);
	EXPECT_EQ(in, out);
}
