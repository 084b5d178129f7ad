#include "perfabi.h"

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>

/*
 * 517e6a301f34: when a sigtrap event overflows while its task is being
 * switched out, the SIGTRAP is left to a task_work (perf_pending_task)
 * that runs when the task next returns to user space. That work held no
 * reference on the event: closing the event's last fd in the meantime
 * freed it, and the work then ran on freed memory. Since the fix the
 * queued work keeps the event alive (a reference, or since 3a5465418f5f
 * for a while a wait in the release), and still sends the SIGTRAP.
 *
 * Thread T (SIGTRAP blocked) sleeps in read() on a pipe. Its event counts
 * context switches, period 1, so T's switch out overflows it with T in
 * the kernel: the SIGTRAP is queued as task_work. Another thread closes the
 * event's only fd; we then wake T. T must come back with exactly one
 * SIGTRAP, si_code TRAP_PERF, si_perf_data = attr.sig_data, and the close
 * must have returned 0 (it may wait for T: kernels with 3a5465418f5f and
 * without 56799bc03565 do, so it runs in its own thread, and T is woken
 * after at most 2 s whether or not the close returned).
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define SIG_DATA	0x517e6a301f34ULL

struct target {
	atomic_int tid, done;
	int go, wake;
	int got, got2, err2;
	siginfo_t si;
};

static void *target_fn(void *arg)
{
	struct target *t = arg;
	struct timespec zero = { 0, 0 };
	sigset_t trap;
	char c;

	sigemptyset(&trap);
	sigaddset(&trap, SIGTRAP);
	pthread_sigmask(SIG_BLOCK, &trap, NULL);
	atomic_store(&t->tid, gettid());
	/* woken by go, T runs with the event active; its next switch out
	 * (blocking on wake) overflows it */
	if (read(t->go, &c, 1) == 1 && read(t->wake, &c, 1) == 1) {
		t->got = sigtimedwait(&trap, &t->si, &zero);
		t->got2 = sigtimedwait(&trap, NULL, &zero);
		t->err2 = errno;
	}
	atomic_store(&t->done, 1);
	return NULL;
}

struct closer {
	int fd, ret, err;
	atomic_int done;
};

static void *closer_fn(void *arg)
{
	struct closer *c = arg;

	c->ret = close(c->fd);
	c->err = errno;
	atomic_store(&c->done, 1);
	return NULL;
}

PERFABI_CASE(
	.assertion = "closing the only fd of a sigtrap event from another thread while its SIGTRAP waits in the target thread's task_work (queued at the target's switch out) returns 0, and the target then gets exactly one SIGTRAP, si_code TRAP_PERF, si_perf_data = attr.sig_data",
	.ref = "\"perf: Fix perf_pending_task() UaF\" 517e6a301f34 (6.1, CVE-2022-48950; stable 5.15.84, 6.0.14): kernel/events/core.c event_sched_out() takes an event reference for perf_pending_task(), which drops it",
	.alone = true,
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec sw.CONTEXT_SWITCHES",
	.fix = { .commit = "517e6a301f34", .subject = "perf: Fix perf_pending_task() UaF", .release = "6.1", .cve = "CVE-2022-48950", .stable = "5.15.84 6.0.14" },
	.min_kernel = "5.13",	/* attr.sigtrap */
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		/* ca6c21327c6a "perf: Fix missing SIGTRAPs" (v6.1-rc2) queued
		 * the work and 517e6a301f34 (v6.1-rc8) fixed it: no mainline
		 * release had the bug, only the stable branches that took the
		 * first before the second: ca7b0a10287e (5.15.77, fixed in
		 * 5.15.84) and 078c12ccf1fb (6.0.7, fixed in 6.0.14) */
		.windows = "5.15.77..5.15.84 6.0.7..6.0.14",
		.why = "perf_pending_task() held no event reference: closing the event before the task_work ran freed it under the work (use-after-free)",
		.fix = "517e6a301f34",
	},
	.timeout = 20,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	struct target t = { 0 };
	struct closer c = { 0 };
	pthread_t th, ch;
	int go[2], wake[2], ev, i;
	uint64_t t0, n;
	char st = 0;

	/* a context switch happens in the kernel: exclude_kernel hides it */
	if (want)
		pa_skip("counting the kernel is refused here (%s): %s",
			pa_errno_name(want), pa_context_string());
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(wake));
	t.go = go[0];
	t.wake = wake[0];
	ASSERT_EQ(pthread_create(&th, NULL, target_fn, &t), 0);
	while (!atomic_load(&t.tid))
		sched_yield();

	attr.disabled = 0;
	attr.exclude_kernel = 0;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = SIG_DATA;
	ev = ASSERT_OPEN(&attr, atomic_load(&t.tid), -1, -1, 0);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	/* T asleep in read(wake), switched out at least once since go */
	for (i = 0; i < 10000; i++) {
		if (pa_read_one(ev) >= 1 &&
		    (st = pa_task_state(getpid(), atomic_load(&t.tid), NULL)) == 'S')
			break;
		pa_sleep_ms(1);
	}
	ASSERT_EQ(st, 'S');
	n = pa_read_one(ev);
	pa_diag("%llu context switches of T counted before the close",
		(unsigned long long)n);

	c.fd = ev;
	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(pthread_create(&ch, NULL, closer_fn, &c), 0);
	for (i = 0; i < 2000 && !atomic_load(&c.done); i++)
		pa_sleep_ms(1);
	if (!atomic_load(&c.done))
		pa_diag("close() still waits for T after 2 s: waking T (the wait of 3a5465418f5f, fixed by 56799bc03565)");
	ASSERT_EQ(write(wake[1], "w", 1), 1);
	for (i = 0; i < 5000 && !(atomic_load(&t.done) && atomic_load(&c.done)); i++)
		pa_sleep_ms(1);
	if (!atomic_load(&t.done) || !atomic_load(&c.done)) {
		pa_fail("5 s after the wakeup: T %s, close() %s",
			atomic_load(&t.done) ? "back" : "still blocked",
			atomic_load(&c.done) ? "returned" : "still blocked");
		pa_abort();
	}
	pthread_join(th, NULL);
	pthread_join(ch, NULL);
	pa_diag("the close took %llu ms",
		(unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));

	EXPECT_EQ(c.ret, 0);
	EXPECT_EQ(t.got, SIGTRAP);
	EXPECT_EQ(t.si.si_signo, SIGTRAP);
	EXPECT_EQ(t.si.si_code, TRAP_PERF);
	EXPECT_EQ(t.si.si_errno, 0);
	{
		/* glibc may lack si_perf_data: it is the word after si_addr */
		unsigned long data;

		memcpy(&data, (char *)&t.si.si_addr + sizeof(void *), sizeof(data));
		EXPECT_EQ(data, SIG_DATA);
	}
	EXPECT_EQ(t.got2, -1);		/* the event is gone: nothing more */
	EXPECT_EQ(t.err2, EAGAIN);
}
