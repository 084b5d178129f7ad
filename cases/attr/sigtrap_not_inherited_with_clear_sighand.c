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
 *
 * Each spawn also costs the parent some faults of its own (its stack and
 * data turn copy-on-write at every clone), and a child that did inherit
 * faults in code and stack besides its pages. Both are the same for two
 * spawns of the same kind, so the oracle is the difference between a
 * child that touches 65 pages and one that touches 1: exactly 0 for
 * CLONE_CLEAR_SIGHAND children, exactly 64 for plain ones. Every spawn
 * kind runs once before the event is opened (warm-up).
 */
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#endif

struct pa_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls;
};

static pid_t spawn(int clear_sighand, int pages)
{
	struct pa_clone_args a;
	long pid;

	memset(&a, 0, sizeof(a));
	a.flags = clear_sighand ? CLONE_CLEAR_SIGHAND : 0;
	a.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0) {
		pa_touch_pages(pages);
		_exit(0);
	}
	return (pid_t)pid;
}

/* How much the count of fd (-1: none) grew over one spawn and reap. */
static int64_t spawn_delta(int fd, int clear_sighand, int pages)
{
	uint64_t before = fd >= 0 ? pa_read_one(fd) : 0;
	int st;
	pid_t pid = spawn(clear_sighand, pages);

	if (pid < 0 && errno == ENOSYS)
		pa_skip("clone3 not available");
	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return fd >= 0 ? (int64_t)(pa_read_one(fd) - before) : 0;
}

PERFABI_CASE(
	.assertion = "an inherited attr.sigtrap event is not inherited by a child created with clone3(CLONE_CLEAR_SIGHAND) (a child touching 65 pages adds exactly as much to the count as one touching 1) but is by a plain child (65 pages add exactly 64 more than 1)",
	.ref = "kernel/events/core.c inherit_task_group(): \"Do not inherit if sigtrap and signal handlers were cleared\" (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND)); include/uapi/linux/perf_event.h sigtrap (5.13)",
	.covers = "attr.sigtrap attr.inherit",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int64_t d[2][2];	/* [clear_sighand][65 pages] */
	int fd;

	attr.disabled = 0;
	attr.inherit = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	for (int clear = 1; clear >= 0; clear--)
		spawn_delta(-1, clear, 1);	/* warm-up */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	for (int clear = 1; clear >= 0; clear--)
		for (int big = 0; big < 2; big++)
			d[clear][big] = spawn_delta(fd, clear, big ? 65 : 1);
	pa_diag("CLONE_CLEAR_SIGHAND children: +%lld (1 page), +%lld (65 pages)",
		(long long)d[1][0], (long long)d[1][1]);
	pa_diag("plain children: +%lld (1 page), +%lld (65 pages)",
		(long long)d[0][0], (long long)d[0][1]);
	EXPECT_EQ(d[1][1] - d[1][0], 0);
	EXPECT_EQ(d[0][1] - d[0][0], 64);
	close(fd);
}
