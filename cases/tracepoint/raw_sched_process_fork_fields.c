#include "perfabi.h"

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
	/* counting the kernel, then RAW of a tracepoint without CAP_ANY */
	int want = pa_expected_errno_or(PA_NEED_KERNEL,
					pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	struct fork_res res = { -1, -1 };
	struct pa_tp_raw tr;

	if (!pa_tp_raw_setup(&tr, "sched", "sched_process_fork", want))
		return;
	if (!pa_tp_raw_run(&tr, set_name, do_fork, &res))
		return;
	ASSERT_GT(res.child, 0);
	EXPECT_EQ(res.status, 0);
	while (pa_tp_raw_next(&tr)) {
		const void *raw = tr.s.raw;
		uint32_t size = tr.s.var.raw_size;

		PA_TP_EXPECT_STR(&tr.fmt, raw, size, "parent_comm", NAME);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "parent_pid", tr.t.tid);
		PA_TP_EXPECT_STR(&tr.fmt, raw, size, "child_comm", NAME);
		PA_TP_EXPECT_INT(&tr.fmt, raw, size, "child_pid", res.child);
	}
	pa_tp_raw_end(&tr, 1);
}
