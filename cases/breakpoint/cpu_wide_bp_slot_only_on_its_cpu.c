#include "perfabi.h"

#include <unistd.h>

#define SLOTS 4		/* x86 debug address registers */

static volatile uint64_t vars[SLOTS + 4];

/* A pinned write breakpoint on vars[i]. */
static struct perf_event_attr bp_attr(int i)
{
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[i],
					      HW_BREAKPOINT_LEN_8);

	a.pinned = 1;
	return a;
}

/* Open it for pid on cpu expecting err (0: an fd); the fd or -1. */
static int try_bp(int i, pid_t pid, int cpu, int err, const char *what)
{
	struct perf_event_attr a = bp_attr(i);
	int fd = pa_open_expect(&a, pid, cpu, -1, 0, err, __FILE__, __LINE__);

	if (err ? fd != -2 : fd < 0)
		pa_diag("that was: %s", what);
	return fd;
}

PERFABI_CASE(
	.assertion = "x86: a CPU-wide breakpoint (pid -1, cpu c) takes one of CPU c's 4 slots and none elsewhere: with one held on CPU a, this task opens exactly 3 breakpoints on any CPU (the 4th fails with ENOSPC), one more bound to CPU b, none bound to CPU a; once it is closed, one bound to CPU a opens",
	.ref = "kernel/events/hw_breakpoint.c toggle_bp_slot() (a CPU breakpoint counts in its CPU's cpu_pinned only), max_bp_pinned_slots() (cpu_pinned + the task's pinned slots on each CPU the new breakpoint may run on), __reserve_bp_slot() -> -ENOSPC; perf_event_open(2), ENOSPC",
	.alone = true,
	.covers = "type.BREAKPOINT errno.ENOSPC arg.cpu arg.pid",
	.pmu = "breakpoint",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	int cpus[2], wide, fd[SLOTS + 2], n;

#if !defined(__x86_64__) && !defined(__i386__)
	pa_skip("the number of breakpoint slots is known here only for x86 (4)");
#endif
	if (pa_expected_errno(PA_NEED_CPU))
		pa_skip("a CPU-wide event needs CAP_PERFMON or perf_event_paranoid < 1 (%s)",
			pa_context_string());
	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");

	/* every slot of this task must be free to begin with */
	for (n = 0; n < SLOTS; n++) {
		struct perf_event_attr a = bp_attr(n);

		fd[n] = pa_perf_open(&a, 0, -1, -1, 0);
		if (fd[n] < 0)
			break;
	}
	if (n < SLOTS && errno == ENOSPC)
		pa_bp_enospc("only %d of x86's %d breakpoint slots were free to this task",
			     n, SLOTS);
	ASSERT_EQ(n, SLOTS);
	while (n-- > 0)
		close(fd[n]);

	wide = try_bp(SLOTS, -1, cpus[0], 0, "CPU-wide on CPU a");
	if (wide < 0)
		pa_abort();
	for (n = 0; n < SLOTS - 1; n++)
		fd[n] = try_bp(n, 0, -1, 0, "task, any CPU, within 3");
	try_bp(SLOTS + 1, 0, -1, ENOSPC, "task, any CPU, 4th");
	fd[SLOTS - 1] = try_bp(SLOTS + 1, 0, cpus[1], 0, "task, bound to CPU b");
	try_bp(SLOTS + 2, 0, cpus[0], ENOSPC, "task, bound to CPU a");

	close(wide);
	fd[SLOTS] = try_bp(SLOTS + 2, 0, cpus[0], 0,
			   "task, bound to CPU a, CPU-wide one closed");
	for (n = 0; n <= SLOTS; n++)
		if (fd[n] >= 0)
			close(fd[n]);
}
