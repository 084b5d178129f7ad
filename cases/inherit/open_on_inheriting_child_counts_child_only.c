#include "perfabi.h"

#include <linux/hw_breakpoint.h>
#include <sys/wait.h>

/*
 * Our inherited execute breakpoint E on target() is copied into a forked
 * child, whose context starts as a clone of ours. We then open a second,
 * non-inherited breakpoint F on the same address with pid = the child:
 * find_get_context() unclones the child's context first, and F is the
 * child's alone. The child calls target() 5 times, we call it 3 times:
 * F counts exactly the child's 5; E counts its own task and the child,
 * 3 + 5, both while the child lives and after it exits.
 */
#define CHILD_CALLS	5
#define OWN_CALLS	3

__attribute__((noinline)) static void target(void)
{
	__asm__ volatile("" ::: "memory");
}

static void child(int cpu, int go, int done)
{
	char c;

	if (cpu >= 0)
		pa_pin_cpu(cpu);	/* off our CPU: fewer context swaps */
	if (read(go, &c, 1) != 1)
		_exit(3);
	for (int i = 0; i < CHILD_CALLS; i++)
		target();
	if (write(done, "d", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	_exit(0);
}

PERFABI_CASE(
	.assertion = "an event opened on a forked child that inherited our events counts that child only (5 calls), while our inherited event keeps counting us and the child together (3 + 5), before and after the child exits",
	.ref = "perf_event_open(2), pid and inherit; kernel/events/core.c find_get_context() unclone_ctx() of the target task's cloned context",
	.alone = true,
	.covers = "arg.pid attr.inherit type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr ea, fa;
	int go[2], done[2], cpus[2], e, f, st;
	pid_t pid;
	char c;

	if (pa_allowed_cpus(cpus, 2) == 2)
		ASSERT_OK(pa_pin_cpu(cpus[0]));
	else
		cpus[1] = -1;
	ea = pa_bp_attr(HW_BREAKPOINT_X, (const void *)target, sizeof(long));
	fa = ea;
	ea.inherit = 1;
	ea.disabled = 0;
	fa.disabled = 0;
	e = ASSERT_OPEN(&ea, 0, -1, -1, 0);
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		child(cpus[1], go[0], done[1]);

	f = ASSERT_OPEN(&fa, pid, -1, -1, 0);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	for (int i = 0; i < OWN_CALLS; i++)
		target();
	EXPECT_EQ(pa_read_one(f), CHILD_CALLS);
	EXPECT_EQ(pa_read_one(e), OWN_CALLS + CHILD_CALLS);

	ASSERT_EQ(write(go[1], "x", 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(pa_read_one(f), CHILD_CALLS);
	EXPECT_EQ(pa_read_one(e), OWN_CALLS + CHILD_CALLS);
}
