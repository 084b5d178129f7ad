#include "perfabi.h"

#include <sys/syscall.h>
#include <sys/wait.h>

/*
 * e552a8389aa4: fork() copies an inherit event into the child's context
 * (perf_event_init_task()) early; when a later step of copy_process()
 * fails, perf_event_free_task() frees those child events and the task.
 * A concurrent close() of the parent event (perf_event_release_kernel())
 * could already have taken a child off the parent's child_list, with a
 * reference to its context: the context outlived the freed task and its
 * last put_ctx() dropped the task's reference again (use-after-free in
 * perf_release()). The fix has perf_event_free_task() take the task out
 * of the context and mark it dead (TASK_TOMBSTONE) first.
 *
 * A fork that fails after perf_event_init_task(): clone3() asking for our
 * own pid as the child's (set_tid) fails in alloc_pid(), after the
 * context was copied: EEXIST where we may choose pids (CAP_SYS_ADMIN, or
 * CAP_CHECKPOINT_RESTORE since 5.9), else EPERM. Each round the main
 * thread makes that clone3() while the other thread closes the only fd of
 * the inherit event; both must return exactly that, round after round.
 *
 * What the bug does (a use-after-free) corrupts none of these results:
 * the case's own checks cannot see it, only the kernel log the runner
 * reads can, on a kernel built to report it (KASAN; .fix.log_only).
 */
#define MAX_ROUNDS	100000
#define BUDGET_MS	3000
#define CAP_CHECKPOINT_RESTORE	40

#ifndef __NR_clone3
#define __NR_clone3	435
#endif

/* struct clone_args up to set_tid_size (CLONE_ARGS_SIZE_VER1) */
struct clone_args_v1 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size;
};

struct round {
	int fd;			/* the inherit event */
	pid_t pid;		/* our pid: taken, so the clone fails */
	int want;		/* the clone's errno */
	long clone_ret, close_ret;
	int clone_err, close_err;
	unsigned bad;
};

static long failing_clone(pid_t pid, int *err)
{
	pid_t set_tid[1] = { pid };
	struct clone_args_v1 args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uint64_t)(uintptr_t)set_tid,
		.set_tid_size = 1,
	};
	long ret = syscall(__NR_clone3, &args, sizeof(args));

	*err = errno;
	if (ret == 0)
		_exit(0);	/* a child after all: the check below fails */
	if (ret > 0)
		waitpid((pid_t)ret, NULL, 0);
	return ret;
}

static void setup(void *arg)
{
	struct round *r = arg;
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.inherit = 1;
	attr.disabled = 0;
	r->fd = pa_perf_open(&attr, 0, -1, -1, 0);
	r->clone_ret = r->close_ret = 0;
}

static void fork_fails(void *arg)
{
	struct round *r = arg;

	r->clone_ret = failing_clone(r->pid, &r->clone_err);
}

static void close_event(void *arg)
{
	struct round *r = arg;

	r->close_ret = close(r->fd);
	r->close_err = errno;
}

static bool after(void *arg)
{
	struct round *r = arg;

	if (r->fd < 0) {
		pa_fail("the inherit event did not open");
		return false;
	}
	if (r->clone_ret != -1 || r->clone_err != r->want) {
		if (!r->bad)
			pa_fail("clone3 returned %ld (%s), want -1 %s", r->clone_ret,
				pa_errno_name(r->clone_err), pa_errno_name(r->want));
		r->bad++;
	}
	if (r->close_ret != 0) {
		if (!r->bad)
			pa_fail("close of the inherit event returned %ld (%s)",
				r->close_ret, pa_errno_name(r->close_err));
		r->bad++;
	}
	return r->bad == 0;
}

PERFABI_CASE(
	.assertion = "closing an inherit event while a fork that copied it fails (clone3 with a taken set_tid, after perf_event_init_task()) leaves both calls exact: clone3 fails with EEXIST (EPERM without the pid-choosing capability) and close() returns 0, round after round",
	.ref = "\"perf/core: Fix use-after-free in perf_release()\" e552a8389aa4 (4.11): kernel/events/core.c perf_event_free_task() detaches the task from the child context and sets ctx->task = TASK_TOMBSTONE before freeing the child events",
	.alone = true,
	.covers = "attr.inherit sw.PAGE_FAULTS",
	.fix = { .commit = "e552a8389aa4", .subject = "perf/core: Fix use-after-free in perf_release()", .release = "4.11",
		 .log_only = true },
	.min_kernel = "5.5",	/* clone3() set_tid: the fork that fails late */
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		/* c6e5b73242d2 "perf: Synchronously clean up child events" (4.5)
		 * made release walk child_list holding child contexts; the fix's
		 * Fixes: line could not be re-read here */
		.from = "4.5",
		.to = "4.11",
		.why = "perf_event_free_task() freed the failed child's task while a concurrent perf_event_release_kernel() still held its context: the last put_ctx() put the freed task (use-after-free)",
		.fix = "e552a8389aa4",
	},
	.timeout = 20,
) {
	struct round r = { .pid = getpid() };
	struct pa_race race = { .setup = setup, .a = fork_fails, .b = close_event,
				.after = after, .arg = &r, .max_rounds = MAX_ROUNDS,
				.max_ms = BUDGET_MS, .cpu_a = 0, .cpu_b = 1 };
	long ret;
	int err;

	r.want = pa_has_cap(PA_CAP_SYS_ADMIN) ||
		 (pa_kernel_at_least("5.9") && pa_has_cap(CAP_CHECKPOINT_RESTORE)) ?
		 EEXIST : EPERM;
	ret = failing_clone(r.pid, &err);
	if (ret == -1 && err == ENOSYS)
		pa_skip("clone3() is not available here (ENOSYS)");
	pa_diag("clone3 with set_tid = our pid: %ld (%s), want %s", ret,
		pa_errno_name(err), pa_errno_name(r.want));
	ASSERT_EQ(ret, -1);
	ASSERT_EQ(err, r.want);

	pa_race_run(&race);
	EXPECT_EQ(r.bad, 0);
	EXPECT_GT(race.rounds, 0);
}
