#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/*
 * Two tasks pinned to one CPU pass a byte back and forth through two pipes,
 * so the CPU switches between them again and again. The CPU-wide event on
 * that CPU sees every switch. kernel/events/core.c: the scheduler calls
 * perf_event_switch(prev, next, false) in perf_event_task_sched_out() and
 * perf_event_switch(next, prev, true) in perf_event_task_sched_in(), with
 * interrupts off in between, so on one CPU a switch-out record of task A
 * whose next_prev is B is immediately followed (among the SWITCH_CPU_WIDE
 * records) by the switch-in record of B whose next_prev is A; the sample_id
 * {pid, tid} of each record is the task running when it was written (A,
 * then B). The partner is once a forked child (another pid) and once a
 * thread of ours (same pid, another tid), so pid and tid cannot be mixed up.
 */
#define ROUNDS 40

struct switch_cpu_rec {
	struct perf_event_header h;
	uint32_t next_prev_pid, next_prev_tid;
	uint32_t pid, tid;	/* sample_id with PERF_SAMPLE_TID */
};

static int ping[2], pong[2];
static pid_t partner_tid;

static void pong_loop(void)
{
	char c;
	int i;

	partner_tid = (pid_t)syscall(SYS_gettid);
	for (i = 0; i < ROUNDS; i++) {
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			return;
	}
}

static void *pong_thread(void *unused)
{
	(void)unused;
	pong_loop();
	return NULL;
}

/* Play ROUNDS rounds with the partner; it was started and waits for ping. */
static void ping_loop(void)
{
	char c = 'x';
	int i;

	for (i = 0; i < ROUNDS; i++) {
		ASSERT_EQ(write(ping[1], &c, 1), 1);
		ASSERT_EQ(read(pong[0], &c, 1), 1);
	}
}

/* Check every out/in pair in r; count the direct switches me <-> partner. */
static void check_pairs(struct pa_ring *r, uint32_t ppid, uint32_t ptid)
{
	const uint32_t me = (uint32_t)getpid(), me_tid = (uint32_t)syscall(SYS_gettid);
	const struct perf_event_header *h;
	struct switch_cpu_rec prev;
	int have_prev = 0, pairs = 0, to_partner = 0, to_me = 0;

	while ((h = pa_ring_next(r))) {
		const struct switch_cpu_rec *s = (const void *)h;

		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		if (h->type != PERF_RECORD_SWITCH_CPU_WIDE)
			continue;
		ASSERT_EQ(h->size, sizeof(*s));
		/* only switches between the two tasks of the case are checked:
		 * on a busy machine other tasks run on the CPU too, and their
		 * records are not always both there (seen on 6.18: a switch-out
		 * to a thread of another process followed by no switch-in of
		 * it) */
		if (have_prev && !((prev.pid == me && prev.next_prev_pid == ppid &&
				    prev.next_prev_tid == ptid) ||
				   (prev.pid == ppid && prev.tid == ptid &&
				    prev.next_prev_pid == me)))
			have_prev = 0;
		if (have_prev) {
			/* the switch-in that follows prev's switch-out */
			pairs++;
			EXPECT_EQ(h->misc & PERF_RECORD_MISC_SWITCH_OUT, 0);
			EXPECT_EQ(s->pid, prev.next_prev_pid);
			EXPECT_EQ(s->tid, prev.next_prev_tid);
			EXPECT_EQ(s->next_prev_pid, prev.pid);
			EXPECT_EQ(s->next_prev_tid, prev.tid);
			if (prev.pid == me && prev.tid == me_tid &&
			    prev.next_prev_pid == ppid && prev.next_prev_tid == ptid)
				to_partner++;
			if (prev.pid == ppid && prev.tid == ptid &&
			    prev.next_prev_pid == me && prev.next_prev_tid == me_tid)
				to_me++;
		}
		have_prev = !!(h->misc & PERF_RECORD_MISC_SWITCH_OUT);
		prev = *s;
	}
	pa_diag("partner %u/%u: %d out/in pairs, %d switches to it, %d back",
		ppid, ptid, pairs, to_partner, to_me);
	EXPECT_GE(to_partner, 1);
	EXPECT_GE(to_me, 1);
}

PERFABI_CASE(
	.assertion = "PERF_RECORD_SWITCH_CPU_WIDE: a switch-out record's next_prev_pid/next_prev_tid are the process and thread id of the task switched to, a switch-in record's those of the task switched from; the switch-in record that follows a switch-out on that CPU is the next task's, naming the task that left (checked between two tasks pinned to one CPU, with a child process and with a thread)",
	.ref = "perf_event_open(2), PERF_RECORD_SWITCH_CPU_WIDE: \"next_prev_pid: The process ID of the previous (if switching in) or next (if switching out) process on the CPU. next_prev_tid: The thread ID ...\"; kernel/events/core.c perf_event_switch(), perf_event_switch_output()",
	.alone = true,
	.covers = "attr.context_switch record.SWITCH_CPU_WIDE",
	.min_kernel = "4.3",
	.privileged = true,
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_ring r;
	int fd, cpus[1], status, want = pa_expected_errno(PA_NEED_CPU);
	pthread_t th;
	pid_t child;

	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	attr.disabled = 1;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	if (want) {
		EXPECT_OPEN_FAIL(&attr, -1, cpus[0], -1, 0, want);
		return;
	}
	fd = ASSERT_OPEN(&attr, -1, cpus[0], -1, 0);
	pa_ring_map(&r, fd, 64);

	/* a child process (inherits the pinning) */
	ASSERT_OK(pipe(ping));
	ASSERT_OK(pipe(pong));
	child = ASSERT_OK(fork());
	if (child == 0) {
		pong_loop();
		_exit(0);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ping_loop();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(waitpid(child, &status, 0), child);
	check_pairs(&r, (uint32_t)child, (uint32_t)child);

	/* a thread of ours (same pid, another tid) */
	ASSERT_EQ(pthread_create(&th, NULL, pong_thread, NULL), 0);
	while (!__atomic_load_n(&partner_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ping_loop();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(pthread_join(th, NULL), 0);
	ASSERT_NE(partner_tid, getpid());
	check_pairs(&r, (uint32_t)getpid(), (uint32_t)partner_tid);
	close(fd);
}
