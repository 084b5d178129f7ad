#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * A function with a return probe forks: the child starts with the
 * parent's stack, whose return address the kernel replaced with its
 * return trampoline when the function was entered. The kernel copies the
 * pending return to the child and maps the trampoline page into it at the
 * same address (uprobe_copy_process(): dup_utask(), dup_xol_work()), so
 * the child returns normally to the real caller. The event, not
 * inherited, counts the parent's return only.
 *
 * Not checked: whether an inherited event counts the child's return. The
 * entry was probed before the child's instance existed, and since the
 * uprobe session consumers ("uprobe: Add support for session consumer",
 * after 6.12) a return goes only to the consumers that saw the entry:
 * 6.18 counts 1 there, while 6.1 and 6.12 call every consumer's return
 * handler (handle_uretprobe_chain()), which should give 2.
 */

#define CHILD_EXIT	42

__attribute__((noinline)) pid_t pa_uretprobe_fork_fn(void);
__attribute__((noinline)) pid_t pa_uretprobe_fork_fn(void)
{
	pid_t pid = fork();

	__asm__ volatile("" ::: "memory");	/* no tail call */
	return pid;
}

/* ENABLE, one call of the forking function, DISABLE once the child has
 * been reaped: the count. The child exits CHILD_EXIT right after the
 * function returned 0 to it. */
static uint64_t run(int fd)
{
	pid_t pid;
	int st;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pid = pa_uretprobe_fork_fn();
	if (pid == 0)
		_exit(CHILD_EXIT);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* not killed (SIGILL, SIGSEGV) on its way back to the caller */
	EXPECT_TRUE(WIFEXITED(st));
	if (WIFEXITED(st))
		EXPECT_EQ(WEXITSTATUS(st), CHILD_EXIT);
	else
		pa_diag("child status 0x%x", st);
	return pa_read_one(fd);
}

PERFABI_CASE(
	.assertion = "a child forked inside a function with a uprobe PMU return probe (retprobe, config:0) on the own task returns from it normally (fork's 0, to the real caller); the event, not inherited, counts exactly the parent's one return",
	.ref = "perf_event_open(2), pid == 0 and inherit clear: this task only; /sys/bus/event_source/devices/uprobe/format/retprobe \"config:0\"; kernel/events/uprobes.c uprobe_copy_process(), dup_utask(), dup_xol_work() (the child's pending returns and trampoline page)",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset attr.config",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uretprobe_fork_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_uretprobe_fork_fn in %s", exe ? exe : "/proc/self/exe");
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.config = 1;	/* format/retprobe: config:0 */

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	EXPECT_EQ(run(fd), 1);
	close(fd);
}
