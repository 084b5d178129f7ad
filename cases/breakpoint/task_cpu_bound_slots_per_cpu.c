#include "perfabi.h"

#include <unistd.h>

#define SLOTS 4		/* x86 debug address registers */

static volatile uint64_t vars[2 * SLOTS + 2];

/* A pinned write breakpoint on vars[i] for this task. */
static struct perf_event_attr bp_attr(int i)
{
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[i],
					      HW_BREAKPOINT_LEN_8);

	a.pinned = 1;
	return a;
}

/* That breakpoint opened for this task on cpu: fd, or -1 (errno). */
static int open_bp(int i, int cpu)
{
	struct perf_event_attr a = bp_attr(i);

	return pa_perf_open(&a, 0, cpu, -1, 0);
}

/* Fill the SLOTS slots of this task on cpu with breakpoints vars[first..]:
 * an ENOSPC before is SKIP where breakpoints outside this case may hold
 * some, else FAIL (this task's breakpoints bound to the other CPU take no
 * slot here). */
static void fill_cpu(int *fd, int first, int cpu)
{
	for (int i = 0; i < SLOTS; i++) {
		fd[i] = open_bp(first + i, cpu);
		if (fd[i] < 0 && errno == ENOSPC)
			pa_bp_enospc("only %d of x86's %d breakpoint slots on CPU %d were free to this task (which held %d bound to other CPUs)",
				     i, SLOTS, cpu, first);
		if (fd[i] < 0) {
			pa_fail("breakpoint %d of %d on CPU %d: perf_event_open() failed with %s",
				i + 1, SLOTS, cpu, pa_errno_name(errno));
			pa_abort();
		}
	}
}

static void expect_enospc(int i, int cpu, const char *what)
{
	struct perf_event_attr a = bp_attr(i);

	if (pa_open_expect(&a, 0, cpu, -1, 0, ENOSPC, __FILE__, __LINE__) != -2)
		pa_diag("that was: %s", what);
}

PERFABI_CASE(
	.assertion = "x86: a per-task breakpoint bound to one CPU (pid 0, cpu c) takes a slot on that CPU only, one on any CPU (cpu -1) a slot on every CPU: a task holds 4 breakpoints on CPU a and 4 more on CPU b, the 5th on either fails with ENOSPC, and an any-CPU breakpoint opens only once a slot is free on both",
	.ref = "kernel/events/hw_breakpoint.c task_bp_pinned() (a task breakpoint on another CPU is not counted), max_bp_pinned_slots() (the new breakpoint's CPUs: one, or all possible), __reserve_bp_slot() -> -ENOSPC; perf_event_open(2), ENOSPC",
	.alone = true,
	.covers = "type.BREAKPOINT errno.ENOSPC arg.cpu",
	.pmu = "breakpoint",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	int cpus[2], fa[SLOTS], fb[SLOTS], any;

#if !defined(__x86_64__) && !defined(__i386__)
	pa_skip("the number of breakpoint slots is known here only for x86 (4)");
#endif
	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");

	fill_cpu(fa, 0, cpus[0]);
	expect_enospc(SLOTS, cpus[0], "5th on CPU a");
	/* CPU b's slots are all still free to this task */
	fill_cpu(fb, SLOTS, cpus[1]);
	expect_enospc(2 * SLOTS, cpus[1], "5th on CPU b");
	expect_enospc(2 * SLOTS, -1, "any CPU, both full");

	/* a slot free on a only: an any-CPU breakpoint also needs one on b */
	close(fa[0]);
	expect_enospc(2 * SLOTS, -1, "any CPU, b full");
	close(fb[0]);
	{
		struct perf_event_attr a = bp_attr(2 * SLOTS);

		any = EXPECT_OPEN(&a, 0, -1, -1, 0);
	}
	/* ... and it holds that slot on each CPU */
	expect_enospc(0, cpus[0], "CPU a after the any-CPU one");
	expect_enospc(SLOTS, cpus[1], "CPU b after the any-CPU one");

	if (any >= 0)
		close(any);
	for (int i = 1; i < SLOTS; i++) {
		close(fa[i]);
		close(fb[i]);
	}
}
