#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define NAME "pa-forker"

struct fork_res {
	pid_t child;
	int status;
};

static void set_name(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, NAME, 0, 0, 0);
}

static void do_fork(void *arg)
{
	struct fork_res *r = arg;

	r->child = fork();
	if (r->child == 0)
		_exit(0);
	if (r->child > 0)
		waitpid(r->child, &r->status, 0);
}

/*
 * One fork() by a thread that is not the main thread, named NAME: the raw
 * entry of sched:sched_process_fork, located by the running kernel's format
 * file, names that thread (its tid, not the process id) as the parent and
 * the new process as the child, with the comm the child inherited.
 */
PERFABI_CASE(
	.assertion = "the PERF_SAMPLE_RAW entry of sched:sched_process_fork, read at the offsets of its tracefs format file, holds common_type = the tracepoint id, common_pid = the forking thread, parent_comm = that thread's comm, parent_pid = that thread's tid, child_comm = the same comm (inherited), child_pid = the pid fork() returned",
	.ref = "include/trace/events/sched.h TRACE_EVENT(sched_process_fork) (parent_pid = parent->pid, child_pid = child->pid); kernel/fork.c kernel_clone(); perf_event_open(2) PERF_SAMPLE_RAW; tracefs events/sched/sched_process_fork/format",
	.covers = "type.TRACEPOINT sample.RAW sample.TID",
	.tracefs = true,
) {
	long id = pa_tp_id_or_skip("sched", "sched_process_fork");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)id);
	/* counting the kernel, then RAW of a tracepoint without CAP_ANY */
	int want = pa_expected_errno_or(PA_NEED_KERNEL,
					pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	const struct perf_event_header *h;
	struct fork_res res = { -1, -1 };
	struct pa_tp_format fmt;
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0;

	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	if (!pa_tp_format_or_skip("sched", "sched_process_fork", &fmt, want)) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	EXPECT_EQ(fmt.id, id);
	pa_thread_start(&t, set_name, do_fork, &res);
	fd = EXPECT_OPEN_RESULT(&attr, t.tid, -1, -1, 0, want);
	if (want) {
		pa_thread_run(&t);
		return;
	}
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_thread_run(&t);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_GT(res.child, 0);
	EXPECT_EQ(res.status, 0);

	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		pa_tp_expect_common(&fmt, s.raw, s.var.raw_size, id, t.tid);
		PA_TP_EXPECT_STR(&fmt, s.raw, s.var.raw_size, "parent_comm", NAME);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "parent_pid", t.tid);
		PA_TP_EXPECT_STR(&fmt, s.raw, s.var.raw_size, "child_comm", NAME);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "child_pid", res.child);
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
