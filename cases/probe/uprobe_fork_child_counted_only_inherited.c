#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * A forked child gets a copy of the parent's probed text, breakpoint
 * included. Without inherit the event does not follow the child: the
 * child's first hit finds no consumer that wants its mm, so the kernel
 * takes the breakpoint out of the child's copy (unapply_uprobe()) and the
 * child's calls run as plain calls, counted nowhere. With inherit the
 * child gets its own instance of the event, its calls count there, and
 * its count joins the parent's when it exits. In both the parent's own
 * calls after the child's hits still count.
 *
 * A non-inherited event stays open beside the inherited one: it keeps the
 * child's perf context from being a clone of the parent's, so the kernel
 * never swaps the two at a context switch. Such a swap loses uprobe PMU
 * counts (each instance has its own consumer, filtered by the mm of the
 * task it was opened for, which the swap does not move): with parent and
 * child on one CPU the inherited count reads N_BEFORE only on 6.18.
 */

static volatile int target_calls;

__attribute__((noinline)) void pa_uprobe_fork_target_fn(void);
__attribute__((noinline)) void pa_uprobe_fork_target_fn(void)
{
	target_calls++;
	__asm__ volatile("" ::: "memory");
}

static void call_n(int n)
{
	for (int i = 0; i < n; i++)
		pa_uprobe_fork_target_fn();
}

#define N_BEFORE	3	/* parent, before the fork */
#define N_CHILD		5	/* the child */
#define N_AFTER		2	/* parent, after the child exited */

/* ENABLE, N_BEFORE calls, a child that makes N_CHILD calls and exits with
 * how many of them ran, N_AFTER calls, DISABLE: the count. */
static uint64_t run(int fd)
{
	int st, before;
	pid_t pid;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	call_n(N_BEFORE);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		before = target_calls;
		call_n(N_CHILD);
		_exit(target_calls - before);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	call_n(N_AFTER);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* the child's calls ran (the function's effect), and it was not
	 * killed by a stray trap */
	EXPECT_TRUE(WIFEXITED(st));
	if (WIFEXITED(st))
		EXPECT_EQ(WEXITSTATUS(st), N_CHILD);
	else
		pa_diag("child status 0x%x", st);
	return pa_read_one(fd);
}

PERFABI_CASE(
	.assertion = "a uprobe PMU event on the own task without attr.inherit counts exactly the task's own calls of the probed function, not those of a child forked while it was enabled, whose calls still run normally; with attr.inherit the child's calls are counted too (parent + child)",
	.ref = "perf_event_open(2), inherit \"counts events of child tasks as well as the task specified\"; kernel/events/uprobes.c uprobe_dup_mmap(), handler_chain() -> unapply_uprobe() (breakpoint removed from a child's mm no consumer wants); kernel/trace/trace_uprobe.c uprobe_perf_filter(), trace_uprobe_filter_add() (an inherited event relies on dup_mmap())",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset attr.inherit",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uprobe_fork_target_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr dummy = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr;
	int fd, noswap;

	if (off < 0)
		pa_skip("cannot find pa_uprobe_fork_target_fn in %s", exe ? exe : "/proc/self/exe");
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);

	/* not inherited: only the parent's calls */
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	EXPECT_EQ(run(fd), N_BEFORE + N_AFTER);
	close(fd);

	/* inherited: the child's calls join the parent's count */
	attr.inherit = 1;
	noswap = ASSERT_OPEN(&dummy, 0, -1, -1, 0);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_EQ(run(fd), N_BEFORE + N_CHILD + N_AFTER);
	close(fd);
	close(noswap);
	EXPECT_EQ(target_calls, 2 * (N_BEFORE + N_AFTER));
}
