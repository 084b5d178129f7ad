#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * 2016066c6619: a task context keeps one perf_event_pmu_context per PMU
 * in pmu_ctx_list. A parent's list was in the order its events were
 * opened (newest first), an inherited child's in the order the parent's
 * groups were walked: different orders. When the two contexts were
 * swapped at a context switch between parent and child (equivalent
 * contexts are swapped, not rescheduled), perf_event_swap_task_ctx_data()
 * walked both lists side by side, WARNed at the first PMU mismatch and
 * swapped the PMU-private data (LBR call stacks) of the wrong PMUs. Since
 * the fix every list is sorted by PMU type.
 *
 * That walk happens only where an event keeps task data: an x86 LBR
 * call-stack event (PERF_SAMPLE_BRANCH_CALL_STACK), hence a hardware PMU.
 * Parent and child, on one CPU, hand a token back and forth (a context
 * switch each way) for a bounded time; the events come from three PMUs
 * (core, software, breakpoint), opened in both orders in turn. The runner
 * fails the case on the WARNING; the counts must also be exact: the
 * breakpoint on tick() counts every call in parent and child.
 */
#define BUDGET_MS	1000
#define MAX_ROUNDS	20000

__attribute__((noinline)) void pa_pmu_order_tick(void);
__attribute__((noinline)) void pa_pmu_order_tick(void)
{
	__asm__ volatile("" ::: "memory");
}

static int open_lbr(void)
{
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_HW_CPU_CYCLES, 1ULL << 40);
	int fd;

	a.type = PERF_TYPE_HARDWARE;
	a.inherit = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER;
	fd = pa_perf_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		pa_skip("no LBR call-stack event here (%s): the swapped task data exists only with one",
			pa_errno_name(errno));
	return fd;
}

/* one run: events opened in `order`, rounds until the budget or the cap */
static __attribute__((unused)) void run(bool hw_first)
{
	struct perf_event_attr bp = pa_bp_attr(HW_BREAKPOINT_X, (const void *)pa_pmu_order_tick, sizeof(long));
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int lbr = -1, bfd, sfd, to[2], from[2], st;
	uint64_t t0, rounds = 0, nbp, nsw;
	char c = 'g';
	pid_t child;

	bp.inherit = sw.inherit = 1;
	bp.disabled = sw.disabled = 0;
	if (hw_first)
		lbr = open_lbr();
	sfd = ASSERT_OPEN(&sw, 0, -1, -1, 0);
	bfd = ASSERT_OPEN(&bp, 0, -1, -1, 0);
	if (!hw_first)
		lbr = open_lbr();

	ASSERT_OK(pipe(to));
	ASSERT_OK(pipe(from));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1 && c == 'g') {
			pa_pmu_order_tick();
			if (write(from[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	while (rounds < MAX_ROUNDS &&
	       pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_MS * 1000000ULL) {
		pa_pmu_order_tick();
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
		rounds++;
	}
	close(to[1]);	/* EOF: the child exits */
	close(from[0]);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_OK(ioctl(bfd, PERF_EVENT_IOC_DISABLE, 0));
	nbp = pa_read_one(bfd);
	nsw = pa_read_one(sfd);
	pa_diag("%s first: %llu rounds, %llu tick() hits",
		hw_first ? "core PMU" : "software and breakpoint", (unsigned long long)rounds,
		(unsigned long long)nbp);
	EXPECT_GT(rounds, 0);
	EXPECT_EQ(nbp, 2 * rounds);	/* parent and child, each round */
	EXPECT_EQ(nsw, 0);	/* the dummy never counts */
	close(lbr);
	close(bfd);
	close(sfd);
}

PERFABI_CASE(
	.assertion = "inherited events of several PMUs (core with an LBR call stack, software, breakpoint) keep exact counts while the parent's and child's contexts are swapped at context switches on one CPU, with no kernel warning: an inherited exec breakpoint counts every call in parent and child (2 per round), a software dummy stays 0",
	.ref = "\"perf/core: Order the PMU list to fix warning about unordered pmu_ctx_list\" 2016066c6619 (6.14, CVE-2025-21895; stable 6.12.18): kernel/events/core.c find_get_pmu_context() keeps pmu_ctx_list sorted by pmu->type; perf_event_swap_task_ctx_data() WARN_ON_ONCE(prev_epc->pmu != next_epc->pmu)",
	.alone = true,
	.covers = "attr.inherit attr.branch_sample_type type.BREAKPOINT sw.DUMMY",
	.fix = { .commit = "2016066c6619", .subject = "perf/core: Order the PMU list to fix warning about unordered pmu_ctx_list", .release = "6.14", .cve = "CVE-2025-21895", .stable = "6.12.18" },
	.hw_pmu = true,
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "6.2",	/* Fixes: bd2756811766 (per-PMU contexts in one task context) */
		.to = "6.14",
		.why = "pmu_ctx_list was in insertion order, differing between parent and inherited child: swapping their contexts WARNed and swapped the task data of the wrong PMUs",
		.fix = "2016066c6619",
		.fixed_in = "6.12.18",	/* Debian changelog: ChangeLog-6.12.18 */
	},
	.timeout = 20,
	.features = "bp-trap",
) {
#if !defined(__x86_64__)
	pa_skip("the task data swapped is x86's LBR call stack (checked on x86-64)");
#else
	int cpus[1];

	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));	/* the child inherits it: one CPU */
	run(true);
	run(false);
#endif
}
