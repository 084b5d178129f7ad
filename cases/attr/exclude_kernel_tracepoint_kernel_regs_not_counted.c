#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define FORKS	3
#define CALLS	5

/*
 * A tracepoint has no privilege level of its own: perf_tp_event_match()
 * applies exclude_kernel to the registers the tracepoint hands perf, and
 * to nothing else ("if (event->attr.exclude_kernel && !user_mode(regs))
 * return 0"). An ordinary tracepoint's perf probe takes the caller's
 * kernel registers (perf_fetch_caller_regs() in include/trace/perf.h), so
 * sched:sched_process_fork, hit in the parent inside fork(), never counts
 * for an exclude_kernel event; syscalls:sys_enter_* pass the user
 * registers of the syscall (perf_syscall_enter()), so an exclude_kernel
 * event counts every call. That test is also what keeps kernel-context
 * hits away from the unprivileged: any identity may open a counting
 * tracepoint with exclude_kernel set (perf_trace_event_perm()).
 *
 * The twin without exclude_kernel shows the forks do hit the tracepoint
 * (it counts each); it needs the right to count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL)), and where that is refused the
 * refusal is checked instead. The children exit at once (inherit is
 * clear: nothing of theirs is counted).
 */
PERFABI_CASE(
	.assertion = "exclude_kernel on a tracepoint excludes the hits made in kernel context: sched:sched_process_fork (kernel registers) opened with exclude_kernel counts 0 over 3 fork()s that its exclude_kernel-clear twin counts as 3, while syscalls:sys_enter_getppid (the syscall's user registers) with exclude_kernel counts all 5 getppid() calls",
	.ref = "perf_event_open(2), exclude_kernel: \"If this bit is set, the count excludes events that happen in kernel space\"; kernel/events/core.c perf_tp_event_match() (exclude_kernel && !user_mode(regs)); include/trace/perf.h perf_fetch_caller_regs(); kernel/trace/trace_syscalls.c perf_syscall_enter()",
	.covers = "attr.exclude_kernel type.TRACEPOINT",
	.tracefs = true,
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	long fork_id = pa_tp_id_or_skip("sched", "sched_process_fork");
	long getppid_id = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	struct perf_event_attr k = pa_tp_attr((uint64_t)fork_id);	/* exclude_kernel */
	struct perf_event_attr t = pa_tp_attr((uint64_t)fork_id);	/* the twin */
	struct perf_event_attr s = pa_tp_attr((uint64_t)getppid_id);	/* syscall tp */
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int kfd, tfd, sfd;

	k.exclude_kernel = 1;
	s.exclude_kernel = 1;
	kfd = ASSERT_OPEN(&k, 0, -1, -1, 0);
	sfd = ASSERT_OPEN(&s, 0, -1, -1, 0);
	tfd = EXPECT_OPEN_RESULT(&t, 0, -1, -1, 0, want);
	if (!want)
		ASSERT_GE(tfd, 0);
	else
		pa_diag("the exclude_kernel-clear twin is refused here (%s), as the rules say: the forks' hits are shown only where counting the kernel is allowed",
			pa_errno_name(want));

	ASSERT_OK(ioctl(kfd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0));
	if (tfd >= 0)
		ASSERT_OK(ioctl(tfd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < FORKS; i++) {
		pid_t c = fork();

		if (c == 0)
			_exit(0);
		ASSERT_GT(c, 0);
		ASSERT_EQ(waitpid(c, NULL, 0), c);
	}
	for (int i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	ASSERT_OK(ioctl(kfd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0));
	if (tfd >= 0)
		ASSERT_OK(ioctl(tfd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_EQ(pa_read_one(kfd), 0);		/* kernel registers: excluded */
	EXPECT_EQ(pa_read_one(sfd), CALLS);	/* user registers: every call */
	if (tfd >= 0) {
		EXPECT_EQ(pa_read_one(tfd), FORKS);	/* the forks did hit it */
		close(tfd);
	}
	close(kfd);
	close(sfd);
}
