#include "perfabi.h"

#include <sys/wait.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * pid > 0 attaches a counter to that task: perf_event_open() finds it
 * (find_lively_task_by_vpid()), checks ptrace access (same uid here) and
 * installs the event in the task's context, so the counter runs only while
 * that task runs (perf_event_task_sched_in()/_out()); after the task exits
 * the event keeps its final count (perf_event_exit_event()) for read().
 *
 * Each run: a child forked that blocks reading a pipe; once it sleeps
 * there, the event opened on it, enabled, user space only; one byte
 * written; the child runs pa_loop3(n) and exits; waitpid; read. The child
 * runs the same code each time but for the loop's length, and none of the
 * opener's instructions are the child's, so on a PMU that counts every
 * instruction (QEMU -icount shift=0; a static binary) the run with n = 2K
 * counts exactly 3K more than the run with n = K.
 *
 * Opened before the child first ran, the event would also count the
 * child's way from fork() back to read() (231 instructions on 6.12-arm64),
 * and whether the child runs before or after the opener is the
 * scheduler's choice: so the opener waits until the child sleeps.
 * (Likewise a child that stayed alive between requests would not do: the
 * reader could be woken, and the child preempted, before it was back in
 * read(), moving a few instructions from one interval to the next.)
 */
static uint64_t run(uint64_t k)
{
	struct perf_event_attr a = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int p[2], fd, status;
	uint64_t v;
	pid_t pid;
	char c = 'g';

	ASSERT_OK(pipe(p));
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		pa_loop3(k);
		_exit(0);
	}
	ASSERT_GT(pid, 0);
	close(p[0]);
	pa_wait_task_sleeps(pid, NULL, "the child did not block in read() within 10 s");
	a.disabled = 0;
	fd = pa_hw_open_attr(&a, pid, -1, -1);
	ASSERT_EQ(write(p[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	v = pa_read_one(fd);
	close(fd);
	close(p[1]);
	return v;
}

PERFABI_CASE(
	.assertion = "a PERF_COUNT_HW_INSTRUCTIONS event opened with pid = another task counts that task's instructions: "
		     "K more iterations of a 3-instruction loop in the target add exactly 3K to the count the opener reads, "
		     "on a PMU that counts every instruction",
	.ref = "perf_event_open(2), \"pid > 0 and cpu == -1: This measures the specified process/thread on any CPU\"; "
	       "kernel/events/core.c find_lively_task_by_vpid(), perf_event_task_sched_in(), perf_event_exit_event()",
	.covers = "hw.INSTRUCTIONS arg.pid",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t one, two;

	pa_need_exact_pmu();
	pa_loop3(1);
	(void)run(1);	/* the path once before */
	one = run(K);
	two = run(2 * K);
	pa_diag("the target's count: %llu over %llu iterations, %llu over %llu", (unsigned long long)one,
		(unsigned long long)K, (unsigned long long)two, (unsigned long long)(2 * K));
	EXPECT_EQ(two - one, 3 * K);
}
