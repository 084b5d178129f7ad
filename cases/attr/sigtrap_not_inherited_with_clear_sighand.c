#include "perfabi.h"

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/*
 * A sigtrap event sends SIGTRAP to the task it counts. A child created with
 * clone3(CLONE_CLEAR_SIGHAND) has its signal handlers reset, so the kernel
 * does not give it a copy of an inherited sigtrap event: its page faults
 * are not counted, while a plain fork()ed child's are. The event counts
 * only (no sample period), so no signal is ever sent.
 */
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#endif

struct pa_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls;
};

static pid_t spawn(int clear_sighand)
{
	struct pa_clone_args a;
	long pid;

	memset(&a, 0, sizeof(a));
	a.flags = clear_sighand ? CLONE_CLEAR_SIGHAND : 0;
	a.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0) {
		pa_touch_pages(64);
		_exit(0);
	}
	return (pid_t)pid;
}

PERFABI_CASE(
	.assertion = "an inherited attr.sigtrap event is not inherited by a child created with clone3(CLONE_CLEAR_SIGHAND) (its 64 page faults are not counted) but is by a plain child (its 64 page faults are counted)",
	.ref = "kernel/events/core.c inherit_task_group(): \"Do not inherit if sigtrap and signal handlers were cleared\" (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND)); include/uapi/linux/perf_event.h sigtrap (5.13)",
	.covers = "attr.sigtrap attr.inherit",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a, b, c;
	int fd, st;
	pid_t pid;

	attr.disabled = 0;
	attr.inherit = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	a = pa_read_one(fd);
	pid = spawn(1);
	if (pid < 0 && errno == ENOSYS)
		pa_skip("clone3 not available");
	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	b = pa_read_one(fd);
	pid = spawn(0);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	c = pa_read_one(fd);
	pa_diag("CLONE_CLEAR_SIGHAND child: +%llu, plain child: +%llu",
		(unsigned long long)(b - a), (unsigned long long)(c - b));
	EXPECT_LT(b - a, 32);
	EXPECT_GE(c - b, 64);
	close(fd);
}
