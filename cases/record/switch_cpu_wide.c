#include "perfabi.h"

#include <sched.h>
#include <time.h>

struct switch_cpu_rec {
	struct perf_event_header h;
	uint32_t next_prev_pid, next_prev_tid;
	uint32_t pid, tid;	/* sample_id with PERF_SAMPLE_TID */
};

PERFABI_CASE(
	.assertion = "attr.context_switch on a CPU-wide event (pid == -1) produces PERF_RECORD_SWITCH_CPU_WIDE {next_prev_pid, next_prev_tid} (+ sample_id): a task sleeping on that CPU gets one record when switched out (PERF_RECORD_MISC_SWITCH_OUT) and one when switched in; opening it needs the CPU-wide permission (EACCES otherwise)",
	.ref = "perf_event_open(2), context_switch (4.3); PERF_RECORD_SWITCH_CPU_WIDE: \"next_prev_pid: The process ID of the previous (if switching in) or next (if switching out) process on the CPU\"",
	.alone = true,
	.covers = "attr.context_switch record.SWITCH_CPU_WIDE",
	.min_kernel = "4.3",
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct timespec ts = { 0, 2000000 };
	const struct perf_event_header *h;
	struct pa_ring r;
	int fd, cpu, want = pa_expected_errno(PA_NEED_CPU), out = 0, in = 0;

	cpu = sched_getcpu();
	ASSERT_OK(pa_pin_cpu(cpu));
	attr.disabled = 0;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, -1, cpu, -1, 0, want);
		return;
	}
	fd = ASSERT_OPEN(&attr, -1, cpu, -1, 0);
	pa_ring_map(&r, fd, 64);
	ASSERT_OK(nanosleep(&ts, NULL));
	ASSERT_OK(nanosleep(&ts, NULL));
	while ((h = pa_ring_next(&r))) {
		const struct switch_cpu_rec *s = (const void *)h;

		EXPECT_NE(h->type, (uint32_t)PERF_RECORD_SWITCH);
		if (h->type != PERF_RECORD_SWITCH_CPU_WIDE)
			continue;
		EXPECT_EQ(h->size, sizeof(*s));
		if (s->pid != (uint32_t)getpid())
			continue;	/* another task's switch */
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
	}
	EXPECT_GE(out, 1);
	EXPECT_GE(in, 1);
}
