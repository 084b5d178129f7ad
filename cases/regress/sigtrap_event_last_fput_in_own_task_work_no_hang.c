#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>

/*
 * 56799bc03565: a sigtrap event's SIGTRAP is delivered by a task_work
 * (perf_pending_task) queued on its task. When that same task drops the
 * event's last file reference, ____fput runs from the same task_work_run()
 * (the list already detached), perf_release() -> _free_event() ->
 * perf_pending_task_sync() could not cancel the pending work and waited
 * for it in TASK_UNINTERRUPTIBLE: a hang that nothing ends. Since the fix
 * the pending work holds a reference on the event: the release returns and
 * the work still sends the SIGTRAP.
 *
 * Thread T blocks in poll() on the sigtrap event (its samples go to another
 * event's ring, so poll sleeps), with SIGTRAP blocked. Its event counts
 * context switches, period 1: the switch out of T overflows it and queues
 * the SIGTRAP work. We close the event's fd while T sleeps: poll's wait
 * entry holds the last reference. Then we wake T through a pipe: its
 * poll() returns, drops that reference (____fput queued last, run first)
 * and must come back to user space, the SIGTRAP pending.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define SIG_DATA	0x56799bc03565ULL

struct target {
	atomic_int tid, polling, done;
	int go, wake, ev;	/* read ends; the event's fd number */
	int poll_ret;
	short revents[2];
	int got, got2, err2;	/* sigtimedwait() results */
	siginfo_t si;
	bool early;		/* a SIGTRAP was pending before poll() */
};

static void *target_fn(void *arg)
{
	struct target *t = arg;
	struct timespec zero = { 0, 0 };
	struct pollfd p[2];
	sigset_t trap;
	char c;

	sigemptyset(&trap);
	sigaddset(&trap, SIGTRAP);
	pthread_sigmask(SIG_BLOCK, &trap, NULL);
	atomic_store(&t->tid, gettid());
	if (read(t->go, &c, 1) != 1)
		goto out;
	p[0] = (struct pollfd){ .fd = t->ev, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = t->wake, .events = POLLIN };
	t->early = sigtimedwait(&trap, NULL, &zero) == SIGTRAP;
	atomic_store(&t->polling, 1);
	t->poll_ret = poll(p, 2, 10000);
	t->revents[0] = p[0].revents;
	t->revents[1] = p[1].revents;
	t->got = sigtimedwait(&trap, &t->si, &zero);
	t->got2 = sigtimedwait(&trap, NULL, &zero);
	t->err2 = errno;
out:
	atomic_store(&t->done, 1);
	return NULL;
}

PERFABI_CASE(
	.assertion = "a thread whose own poll() drops the last reference of a sigtrap event while that event's SIGTRAP is still pending returns to user space (no hang in the release) and then has exactly one SIGTRAP, si_code TRAP_PERF, si_perf_data = attr.sig_data",
	.ref = "\"perf: Fix hang while freeing sigtrap event\" 56799bc03565 (6.15, CVE-2025-37747; stable 6.14.3, 6.13.12, 6.12.24, 6.1.191): kernel/events/core.c perf_pending_task() holds an event reference instead of _free_event() -> perf_pending_task_sync() waiting",
	.alone = true,
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec sw.CONTEXT_SWITCHES ioctl.SET_OUTPUT fd.poll",
	.fix = { .commit = "56799bc03565", .subject = "perf: Fix hang while freeing sigtrap event", .release = "6.15", .cve = "CVE-2025-37747", .stable = "6.14.3 6.13.12 6.12.24 6.1.191" },
	.min_kernel = "5.13",	/* attr.sigtrap */
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		/* 3a5465418f5f (6.11) brought the wait; its stable backports
		 * reached 5.15.165, 6.1.103, 6.6.44 and 6.10.3: windows of
		 * those branches only (no 5.15.y, 6.6.y or 6.10.y fix is
		 * known: open) */
		.from = "6.11",
		.to = "6.15",
		.windows = "5.15.165.. 6.1.103..6.1.191 6.6.44.. 6.10.3..",
		.why = "_free_event() -> perf_pending_task_sync() waited uninterruptibly for a pending SIGTRAP task_work that the releasing task itself could no longer run or cancel",
		.fix = "56799bc03565",
		/* Debian changelogs: ChangeLog-6.12.24, ChangeLog-6.1.191; 6.13/6.14 from the CVE record */
		.fixed_in = "6.14.3 6.13.12 6.12.24",
	},
	.timeout = 20,
) {
	struct perf_event_attr dattr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	struct target t = { 0 };
	int go[2], wake[2], d, ev, i;
	struct pa_ring r;
	pthread_t th;
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

	d = ASSERT_OPEN(&dattr, atomic_load(&t.tid), -1, -1, 0);
	pa_ring_map(&r, d, 4);		/* watermark 8 KiB: no wakeup */
	attr.disabled = 0;
	attr.exclude_kernel = 0;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = SIG_DATA;
	ev = ASSERT_OPEN(&attr, atomic_load(&t.tid), -1, -1, 0);
	ASSERT_OK(ioctl(ev, PERF_EVENT_IOC_SET_OUTPUT, d));
	t.ev = ev;
	ASSERT_EQ(write(go[1], "g", 1), 1);

	/* T asleep in poll(), switched out at least once since it began */
	for (i = 0; i < 10000; i++) {
		if (atomic_load(&t.polling) && pa_read_one(ev) >= 1 &&
		    (st = pa_task_state(getpid(), atomic_load(&t.tid), NULL)) == 'S')
			break;
		pa_sleep_ms(1);
	}
	ASSERT_EQ(st, 'S');
	pa_diag("%llu context switches of T counted before the close",
		(unsigned long long)pa_read_one(ev));
	ASSERT_OK(close(ev));		/* poll's wait entry: the last reference */
	ASSERT_EQ(write(wake[1], "w", 1), 1);
	for (i = 0; i < 5000 && !atomic_load(&t.done); i++)
		pa_sleep_ms(1);
	if (!atomic_load(&t.done)) {
		pa_fail("T did not come back from poll() within 5 s (state '%c'): the release hangs",
			pa_task_state(getpid(), atomic_load(&t.tid), NULL) ?: '?');
		pa_abort();
	}
	pthread_join(th, NULL);

	if (t.early)
		pa_diag("T took a SIGTRAP before poll() (preempted): drained");
	EXPECT_EQ(t.poll_ret, 2);
	EXPECT_EQ(t.revents[0], POLLNVAL);	/* its fd was closed */
	EXPECT_EQ(t.revents[1], POLLIN);
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
	pa_ring_unmap(&r);
	close(d);
}
