#include "perfabi.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

/*
 * An event attached to a thread that is not the main thread (pid = its
 * tid), with comm, task, context_switch and sample_id_all {pid, tid}, id.
 * The thread renames itself (COMM), forks a child that exits at once
 * (FORK; the child's EXIT is not ours: no inherit), sleeps (SWITCH out and
 * in) and exits (its own EXIT, from perf_event_exit_task_context()). Every
 * record is written by the thread itself, so each sample_id trailer carries
 * pid = the process id and tid = the thread's id (pid != tid):
 * __perf_event_header__init_id() takes them from current.
 */
struct trailer {
	uint32_t pid, tid;
	uint64_t id;
};

static int go[2];
static pid_t thread_tid, fork_child;

static void *thread_fn(void *unused)
{
	int status;
	char c;

	(void)unused;
	__atomic_store_n(&thread_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(go[0], &c, 1) != 1)
		return NULL;
	prctl(PR_SET_NAME, "pa-sid-thr");
	fork_child = fork();
	if (fork_child == 0)
		_exit(0);
	if (fork_child > 0)
		waitpid(fork_child, &status, 0);
	pa_sleep_until_vswitches(1);	/* a switch out and in, not only a sleep */
	return NULL;
}

static int tgkill0(pid_t tgid, pid_t tid)
{
	return (int)syscall(SYS_tgkill, tgid, tid, 0);
}

PERFABI_CASE(
	.assertion = "attr.sample_id_all: the sample_id trailer of the PERF_RECORD_COMM, FORK, EXIT and SWITCH records of a thread that is not the main thread carries pid = the process id and tid = the thread's id (pid != tid), and the event's id; the records' own pid/tid (COMM, EXIT) and ppid/ptid (FORK) name the process and the thread likewise",
	.ref = "perf_event_open(2), sample_id_all; struct sample_id {pid, tid} (PERF_SAMPLE_TID); PERF_RECORD_COMM/FORK/EXIT/SWITCH; kernel/events/core.c __perf_event_header__init_id(), perf_event_task_output()",
	.covers = "attr.sample_id_all record.COMM record.FORK record.EXIT record.SWITCH",
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const uint32_t me = (uint32_t)getpid();
	struct timespec ms = { 0, 1000000 };
	const struct perf_event_header *h;
	int fd, ncomm = 0, nfork = 0, nexit = 0, nout = 0, nin = 0;
	uint64_t id = 0;
	struct pa_ring r;
	uint32_t tid;
	pthread_t th;

	attr.disabled = 0;
	attr.comm = 1;
	attr.task = 1;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	ASSERT_EQ(pa_sample_id_size(&attr), sizeof(struct trailer));
	ASSERT_OK(pipe(go));
	ASSERT_EQ(pthread_create(&th, NULL, thread_fn, NULL), 0);
	while (!__atomic_load_n(&thread_tid, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	tid = (uint32_t)thread_tid;
	ASSERT_NE(tid, me);
	fd = ASSERT_OPEN(&attr, thread_tid, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 16);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	/* pthread_join() returns before perf_event_exit_task(): wait it out */
	while (tgkill0((pid_t)me, thread_tid) == 0)
		nanosleep(&ms, NULL);
	ASSERT_EQ(errno, ESRCH);
	ASSERT_GT(fork_child, 0);

	while ((h = pa_ring_next(&r))) {
		const uint32_t *body = (const uint32_t *)(h + 1);
		const struct trailer *t;

		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		ASSERT_GE(h->size, sizeof(*h) + sizeof(*t));
		t = (const void *)((const char *)h + h->size - sizeof(*t));
		EXPECT_EQ(t->pid, me);
		EXPECT_EQ(t->tid, tid);
		EXPECT_EQ(t->id, id);
		switch (h->type) {
		case PERF_RECORD_COMM:
			ncomm++;
			EXPECT_EQ(body[0], me);
			EXPECT_EQ(body[1], tid);
			EXPECT_TRUE(strcmp((const char *)&body[2], "pa-sid-thr") == 0);
			EXPECT_EQ(h->size, sizeof(*h) + 8 + 16 + sizeof(*t));
			break;
		case PERF_RECORD_FORK:	/* pid, ppid, tid, ptid, time */
			nfork++;
			EXPECT_EQ(body[0], (uint32_t)fork_child);
			EXPECT_EQ(body[1], me);
			EXPECT_EQ(body[2], (uint32_t)fork_child);
			EXPECT_EQ(body[3], tid);
			EXPECT_EQ(h->size, sizeof(struct pa_task_rec) + sizeof(*t));
			break;
		case PERF_RECORD_EXIT:
			nexit++;
			EXPECT_EQ(body[0], me);
			EXPECT_EQ(body[1], (uint32_t)getppid());	/* real_parent */
			EXPECT_EQ(body[2], tid);
			EXPECT_EQ(body[3], (uint32_t)getppid());
			EXPECT_EQ(h->size, sizeof(struct pa_task_rec) + sizeof(*t));
			break;
		case PERF_RECORD_SWITCH:
			EXPECT_EQ(h->size, sizeof(*h) + sizeof(*t));
			if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
				nout++;
			else
				nin++;
			break;
		default:
			pa_fail("unexpected record type %u", h->type);
		}
	}
	pa_diag("COMM %d FORK %d EXIT %d SWITCH out %d in %d", ncomm, nfork, nexit, nout, nin);
	EXPECT_EQ(ncomm, 1);
	EXPECT_EQ(nfork, 1);
	EXPECT_EQ(nexit, 1);
	EXPECT_GE(nout, 1);	/* at least nanosleep() */
	EXPECT_GE(nin, 1);
	close(fd);
}
