#include "perfabi.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

/*
 * A thread (clone with CLONE_THREAD) is a task of the same process: its
 * PERF_RECORD_FORK and PERF_RECORD_EXIT have pid == the process id and
 * tid == the thread's id. kernel/events/core.c perf_event_task_output():
 *  - FORK (written by the creating thread, current):
 *      ppid = pid of current = the process id, ptid = tid of current
 *      (the main thread here): pid == ppid, tid != ptid;
 *  - EXIT: ppid = ptid = pid of task->real_parent. A thread's real_parent
 *      is the process's parent (copy_process(): CLONE_THREAD takes
 *      current->real_parent), so both are getppid().
 * The event is an inherited attr.task dummy on us, bound to the CPU we
 * pin to (an inherited per-task event can be mmapped only with a CPU), so
 * the thread has a copy and its EXIT lands in our ring; a non-inherited
 * dummy keeps the thread's context from being a swappable clone of ours.
 * pthread_join() returns when the thread's tid is cleared, before
 * perf_event_exit_task(): we wait until the thread is gone
 * (tgkill(..., 0) fails with ESRCH), which comes after its EXIT record.
 */
static pid_t thread_tid;

static void *note_tid(void *unused)
{
	(void)unused;
	thread_tid = (pid_t)syscall(SYS_gettid);
	return NULL;
}

static int tgkill0(pid_t tgid, pid_t tid)
{
	return (int)syscall(SYS_tgkill, tgid, tid, 0);
}

PERFABI_CASE(
	.assertion = "attr.task: a new thread's PERF_RECORD_FORK has pid == ppid == the process id, tid = the thread's id and ptid = the creating thread's id (tid != ptid); its PERF_RECORD_EXIT has pid = the process id, tid = the thread's id and ppid == ptid == the process's parent (a thread's real parent)",
	.ref = "perf_event_open(2), task; PERF_RECORD_FORK/PERF_RECORD_EXIT {pid, ppid, tid, ptid, time}; kernel/events/core.c perf_event_task_output(); kernel/fork.c copy_process() (CLONE_THREAD: real_parent = current->real_parent)",
	.alone = true,
	.covers = "attr.task record.FORK record.EXIT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct pa_task_rec *t;
	const struct perf_event_header *h;
	struct pa_task_rec fork_rec, exit_rec;
	struct timespec ms = { 0, 1000000 };
	int cpus[1], fd, nfork = 0, nexit = 0;
	pid_t me = getpid(), main_tid = (pid_t)syscall(SYS_gettid);
	struct pa_ring r;
	pthread_t th;

	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	attr.disabled = 0;
	attr.inherit = 1;
	attr.task = 1;
	fd = ASSERT_OPEN(&attr, 0, cpus[0], -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_EQ(pthread_create(&th, NULL, note_tid, NULL), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	ASSERT_NE(thread_tid, me);
	while (tgkill0(me, thread_tid) == 0)
		nanosleep(&ms, NULL);
	ASSERT_EQ(errno, ESRCH);
	memset(&fork_rec, 0, sizeof(fork_rec));
	memset(&exit_rec, 0, sizeof(exit_rec));
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_EXIT)
			continue;
		t = (const struct pa_task_rec *)h;
		if (t->tid != (uint32_t)thread_tid)
			continue;
		EXPECT_EQ(h->size, sizeof(*t));
		if (h->type == PERF_RECORD_FORK) {
			nfork++;
			fork_rec = *t;
		} else {
			nexit++;
			exit_rec = *t;
		}
	}
	ASSERT_EQ(nfork, 1);
	ASSERT_EQ(nexit, 1);
	EXPECT_EQ(fork_rec.pid, (uint32_t)me);
	EXPECT_EQ(fork_rec.ppid, (uint32_t)me);
	EXPECT_EQ(fork_rec.ptid, (uint32_t)main_tid);
	EXPECT_NE(fork_rec.tid, fork_rec.ptid);
	EXPECT_EQ(exit_rec.pid, (uint32_t)me);
	EXPECT_EQ(exit_rec.ppid, (uint32_t)getppid());
	EXPECT_EQ(exit_rec.ptid, (uint32_t)getppid());
	EXPECT_GE(exit_rec.time, fork_rec.time);
	close(fd);
}
