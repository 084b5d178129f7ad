#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/wait.h>

/*
 * One disabled, inherited enable_on_exec page-fault counter on this task
 * (inherit = 1, enable_on_exec = 1, disabled = 1), and nothing else in our
 * context. Two children, one after the other, each forked, told to go,
 * exec'ing the touch_pages fixture and reaped: the first touches N1 = 64
 * pages, the second N2 = 128. Each child's copy of the event is enabled by
 * its own exec (perf_event_enable_on_exec()) and folded into ours when it
 * exits (sync_child_event()), so each child adds its fixture's start-up
 * faults b (the same for both: the same static binary, exec'd once first
 * so that its pages are cached, and exec'd with address-space
 * randomization off, without which b varied from 21 to 23 here) plus its
 * pages: after the first child our count is v1 = b + N1, after the second
 * v2 = v1 + b + N2, i.e. exactly v2 - v1 = v1 + (N2 - N1) = v1 + 64. We
 * ourselves never exec and the event is never enabled in our task: we add
 * nothing. A second child that is not counted gives v2 - v1 = 0.
 *
 * What goes wrong (cause found reading kernel/events/core.c, 6.12, and
 * confirmed on 6.18.44 by the probe below and by sched_switch traces):
 * our context has only inherited events, so each child's context is a
 * clone of ours (perf_event_init_context(): parent_ctx, parent_gen). Each
 * time we and a child that has not exec'd yet switch directly into each
 * other on a CPU (we block in waitpid(), it was runnable, or the reverse),
 * perf_event_context_sched_out() swaps the two contexts instead of
 * scheduling them out and in. After an odd number of such switches the
 * first child execs holding OUR context, with the original event (the one
 * our fd names): perf_event_enable_on_exec() enables that event and
 * event_enable_on_exec() clears event->attr.enable_on_exec in it. We now
 * hold the first child's context, whose copy of the event is still OFF.
 * The second fork clones that context; inherit_event() takes the state
 * from the copy (OFF) but the attr from the original
 * (parent_event = parent_event->parent; perf_event_alloc(&parent_event->attr)),
 * so the second child's copy is OFF with enable_on_exec = 0: it never
 * counts, unless we and the second child swap again an odd number of
 * times before its exec, which hands it our (OFF, enable_on_exec = 1)
 * copy. So the second child goes uncounted exactly when the direct
 * switches between us and the first child before its exec are odd and
 * those between us and the second child are even (100 of 100 traced runs
 * agree). The first child is always counted (the original event counted
 * it, and stays readable in the EXIT state its exit left it in). With a
 * non-inherited event in our context, contexts are never clones and never
 * swapped: no failure in 400 runs.
 *
 * The diagnostic probe: after the first child is reaped, an open with
 * group_fd = our event, PERF_FLAG_FD_NO_GROUP and the reaped pid gives
 * ENODEV when our event is in the EXIT state (it left with the child: the
 * swap happened) and ESRCH when it is still in our context; it changes
 * nothing either way.
 *
 * PARKED: fails intermittently on 6.18.44 (this machine, 2 CPUs: 5 of 20
 * runs; 28, 44 and 48 of 200 in three series; parked/README.md has the
 * variants) by the context-swap cause above, a kernel bug against
 * documented behaviour (inherit: children are counted; enable_on_exec:
 * the counter is enabled at exec). Whether a later kernel fixed it was
 * not checked (no newer source at hand). Settled by a kernel fix (for
 * instance: event_enable_on_exec() not clearing the attr that
 * inherit_event() copies into later children, or no context swap while a
 * context holds an enable_on_exec event not yet enabled); then it moves
 * to cases/inherit/ with an .xfail naming the kernels without the fix.
 */
#define N1	64
#define N2	128

/* Fork a child that waits for a byte on *go and then execs touch_pages
 * with pages, with address-space randomization off (personality
 * ADDR_NO_RANDOMIZE survives exec): a random stack offset would change
 * how many stack pages the fixture's start-up faults in. */
static pid_t exec_child_start(int *go, const char *pages)
{
	const char *path = pa_fixture("touch_pages");
	int p[2];
	pid_t pid;
	char c;

	ASSERT_OK(pipe(p));
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		close(p[1]);
		if (personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1)
			_exit(125);
		if (read(p[0], &c, 1) != 1)
			_exit(126);
		execl(path, "touch_pages", pages, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void probe_swap(int fd, pid_t reaped)
{
	struct perf_event_attr d = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int r, err;

	errno = 0;
	r = pa_perf_open(&d, reaped, -1, fd, PERF_FLAG_FD_NO_GROUP);
	err = errno;
	if (r >= 0) {
		close(r);
		pa_diag("probe: opened (unexpected)");
		return;
	}
	pa_diag("probe after the first child: %s (%s)", pa_errno_name(err),
		err == ENODEV ? "our event left with it: contexts were swapped" :
		err == ESRCH ? "our event is still ours: no swap" : "?");
}

PERFABI_CASE(
	.assertion = "attr.inherit with attr.enable_on_exec: every child that execs is counted from its exec, the second as well as the first: two children exec'ing the same program, touching 64 and then 128 pages, add b + 64 and b + 128 to the parent's counter (exactly 64 apart), the parent itself adding nothing",
	.ref = "perf_event_open(2), inherit; enable_on_exec: \"a counter is automatically enabled after a call to exec(2)\"; kernel/events/core.c perf_event_enable_on_exec(), event_enable_on_exec(), inherit_event(), perf_event_context_sched_out()",
	.covers = "attr.enable_on_exec attr.inherit attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v1, v2;
	int go, fd;
	pid_t c1, c2;
	char n1[16], n2[16];

	snprintf(n1, sizeof(n1), "%d", N1);
	snprintf(n2, sizeof(n2), "%d", N2);
	/* warm-up: the fixture's pages in the page cache */
	ASSERT_EQ(pa_run_fixture("touch_pages", n1), 0);

	attr.inherit = 1;
	attr.enable_on_exec = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	c1 = exec_child_start(&go, n1);
	ASSERT_EQ(pa_exec_child_go(c1, go), 0);
	v1 = pa_read_one(fd);
	probe_swap(fd, c1);

	c2 = exec_child_start(&go, n2);
	ASSERT_EQ(pa_exec_child_go(c2, go), 0);
	v2 = pa_read_one(fd);

	pa_diag("after the first child (%d pages): %llu; after the second (%d pages): %llu",
		N1, (unsigned long long)v1, N2, (unsigned long long)v2);
	ASSERT_GE(v1, N1);
	/* the second child adds b + N2 = (v1 - N1) + N2 */
	EXPECT_EQ(v2 - v1, v1 + (N2 - N1));
	close(fd);
}
