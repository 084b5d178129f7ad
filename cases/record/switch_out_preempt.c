#include "perfabi.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

/*
 * kernel/events/core.c perf_event_switch(): a switch-out record gets
 * PERF_RECORD_MISC_SWITCH_OUT, and also PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
 * when the task is still runnable (task->on_rq; task_is_runnable() since
 * 6.12); a switch-in record gets neither. Phase 1: we and a forked busy
 * child are pinned to one CPU and we spin, never blocking, so every time we
 * are switched out we were preempted. Phase 2 (child gone): N nanosleep()s,
 * each blocking once; a switch-out there is PREEMPT only if something
 * preempted us, so at least N switch-outs have SWITCH_OUT alone.
 */
#define SLEEPS 5

struct tally {
	int out_preempt, out_block, in, bad;
};

static void drain(struct pa_ring *r, struct tally *t)
{
	const struct perf_event_header *h;

	memset(t, 0, sizeof(*t));
	while ((h = pa_ring_next(r))) {
		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		EXPECT_EQ(h->size, sizeof(*h));
		if (h->misc == (PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT))
			t->out_preempt++;
		else if (h->misc == PERF_RECORD_MISC_SWITCH_OUT)
			t->out_block++;
		else if (h->misc == 0)
			t->in++;
		else
			t->bad++;
	}
}

PERFABI_CASE(
	.assertion = "PERF_RECORD_SWITCH: a switch-out record has misc PERF_RECORD_MISC_SWITCH_OUT, with PERF_RECORD_MISC_SWITCH_OUT_PREEMPT added exactly when the task was preempted (still runnable), not when it blocked; a switch-in record has neither bit",
	.ref = "perf_event_open(2), PERF_RECORD_SWITCH; include/uapi/linux/perf_event.h PERF_RECORD_MISC_SWITCH_OUT_PREEMPT \"Indicates that thread was preempted in TASK_RUNNING state\" (4.17, 101592b4904e); kernel/events/core.c perf_event_switch()",
	.alone = true,
	.covers = "attr.context_switch record.SWITCH",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct tally t;
	struct pa_ring r;
	int fd, cpus[1], go[2], status;
	long slept;
	pid_t child;
	char c;

	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	attr.disabled = 1;
	attr.context_switch = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);

	/* phase 1: preempted by a busy task on our CPU */
	ASSERT_OK(pipe(go));
	child = ASSERT_OK(fork());
	if (child == 0) {
		if (write(go[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pa_busy_loop(1000000);
	}
	ASSERT_EQ(read(go[0], &c, 1), 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(100);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(kill(child, SIGKILL));
	ASSERT_EQ(waitpid(child, &status, 0), child);
	drain(&r, &t);
	pa_diag("busy: %d preempted out, %d blocked out, %d in", t.out_preempt, t.out_block, t.in);
	EXPECT_EQ(t.bad, 0);
	EXPECT_GE(t.out_preempt, 1);
	EXPECT_EQ(t.out_block, 0);
	EXPECT_EQ(t.in, t.out_preempt);

	/* phase 2: blocking */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	slept = pa_sleep_until_vswitches(SLEEPS);	/* switches, not only sleeps */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	drain(&r, &t);
	pa_diag("sleeping: %d preempted out, %d blocked out, %d in", t.out_preempt, t.out_block, t.in);
	EXPECT_EQ(t.bad, 0);
	EXPECT_GE(t.out_block, slept);
	EXPECT_EQ(t.in, t.out_preempt + t.out_block);
	close(fd);
}
