#include "perfabi.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>

/*
 * A thread that is not the main thread (so pid != tid) renames itself by
 * writing its own /proc/<pid>/task/<tid>/comm. The event is attached to
 * that thread (pid = its tid), counting nothing, with attr.comm and a ring.
 * comm_write() -> set_task_comm() -> perf_event_comm(task, false): one
 * PERF_RECORD_COMM {pid, tid, comm} naming the process and the thread,
 * with the new name, and no PERF_RECORD_MISC_COMM_EXEC. (/proc/self/comm
 * is the main thread's file: written from another thread it renames the
 * main thread, so its record would have pid == tid.)
 */
#define NAME "pa-thr-comm"	/* 11 bytes + NUL: padded to 16 */

static int ready[2], go[2], done[2], write_errno;
static pid_t tid;

static void *rename_self(void *unused)
{
	char path[64], c;
	int fd, ok = 0;

	(void)unused;
	tid = (pid_t)syscall(SYS_gettid);
	if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)getpid(), (int)tid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ok = write(fd, NAME, strlen(NAME)) == (ssize_t)strlen(NAME);
		close(fd);
	}
	if (!ok)
		write_errno = errno;
	c = ok ? 'd' : 'e';
	if (write(done[1], &c, 1) != 1)
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "attr.comm: a thread that is not the main thread writing its /proc/<pid>/task/<tid>/comm produces one PERF_RECORD_COMM with the new name, pid = the process id and tid = the thread's id (pid != tid), without PERF_RECORD_MISC_COMM_EXEC",
	.ref = "perf_event_open(2), comm: \"tracking of process command name as modified by the exec(2) and prctl(PR_SET_NAME) system calls as well as writing to /proc/self/comm\"; PERF_RECORD_COMM; fs/proc/base.c comm_write()",
	.covers = "attr.comm record.COMM arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct pa_comm_rec *c;
	struct pa_ring r;
	pthread_t th;
	int fd, n = 0;
	char res;

	if (access("/proc/self/task", F_OK))
		pa_skip("/proc is not mounted: no /proc/self/task");
	ASSERT_OK(pipe(ready));
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	ASSERT_EQ(pthread_create(&th, NULL, rename_self, NULL), 0);
	ASSERT_EQ(read(ready[0], &res, 1), 1);
	ASSERT_NE(tid, getpid());
	attr.disabled = 0;
	attr.comm = 1;
	fd = ASSERT_OPEN(&attr, tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &res, 1), 1);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	if (res != 'd')
		pa_diag("writing /proc/%d/task/%d/comm failed: %s", (int)getpid(),
			(int)tid, pa_errno_name(write_errno));
	ASSERT_EQ(res, 'd');
	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		c = (const struct pa_comm_rec *)h;
		n++;
		EXPECT_EQ(c->pid, (uint32_t)getpid());
		EXPECT_EQ(c->tid, (uint32_t)tid);
		EXPECT_TRUE(strcmp(c->comm, NAME) == 0);
		EXPECT_EQ(h->size, sizeof(*c) + 16);
		EXPECT_FALSE(h->misc & PERF_RECORD_MISC_COMM_EXEC);
	}
	EXPECT_EQ(n, 1);
	close(fd);
}
