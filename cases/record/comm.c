#include "perfabi.h"

#include <sys/prctl.h>

/*
 * The rename is done by a thread that is not the main thread, watched by
 * an event attached to it with comm and comm_exec: pid and tid differ,
 * and PERF_RECORD_MISC_COMM_EXEC, which comm_exec enables, must stay clear
 * for a rename that is not an exec (perf_event_comm(task, exec = false)).
 * The trailer's time (sample_id_all, CLOCK_MONOTONIC) lies between clock
 * readings around the prctl().
 */
struct comm_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[16];		/* "pa-comm-thread\0" padded to 16 */
	uint32_t sid_pid, sid_tid;
	uint64_t sid_time;
};

static int prctl_err = -1;
static uint64_t t_before, t_after;

static void rename_thread(void *unused)
{
	(void)unused;
	t_before = pa_clock_ns(CLOCK_MONOTONIC);
	prctl_err = prctl(PR_SET_NAME, "pa-comm-thread") ? errno : 0;
	t_after = pa_clock_ns(CLOCK_MONOTONIC);
}

PERFABI_CASE(
	.assertion = "attr.comm: renaming a thread that is not the main thread with prctl(PR_SET_NAME) produces one PERF_RECORD_COMM {pid, tid, comm} with pid the process, tid the thread, comm exactly the new name NUL-padded to 8 bytes, and PERF_RECORD_MISC_COMM_EXEC clear although comm_exec is set (not an exec)",
	.ref = "perf_event_open(2), comm: \"enables tracking of process command name as modified by the exec(2) and prctl(PR_SET_NAME) system calls\"; comm_exec: \"flag comm events that are due to an exec\"; PERF_RECORD_COMM; kernel/sys.c prctl PR_SET_NAME -> __set_task_comm(me, comm, false)",
	.covers = "attr.comm attr.comm_exec record.COMM attr.sample_id_all sample.TID sample.TIME",
	.min_kernel = "4.1",	/* use_clockid; comm_exec is 3.16 */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct comm_rec *c;
	struct pa_thread th;
	struct pa_ring r;
	int fd, n = 0;

	pa_thread_start(&th, NULL, rename_thread, NULL);
	attr.disabled = 0;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	ASSERT_EQ(pa_sample_id_size(&attr), 16u);
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_thread_run(&th);
	ASSERT_EQ(prctl_err, 0);
	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		c = (const struct comm_rec *)h;
		n++;
		ASSERT_EQ(h->size, sizeof(*c));
		EXPECT_EQ(h->misc, 0);		/* no COMM_EXEC */
		EXPECT_EQ(c->pid, (uint32_t)getpid());
		EXPECT_EQ(c->tid, (uint32_t)th.tid);
		EXPECT_TRUE(memcmp(c->comm, "pa-comm-thread\0\0", 16) == 0);
		EXPECT_EQ(c->sid_pid, (uint32_t)getpid());
		EXPECT_EQ(c->sid_tid, (uint32_t)th.tid);
		EXPECT_GE(c->sid_time, t_before);
		EXPECT_LE(c->sid_time, t_after);
	}
	EXPECT_EQ(n, 1);
	close(fd);
}
