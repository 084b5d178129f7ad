#include "perfabi.h"

#include <signal.h>

/*
 * PERF_EVENT_IOC_REFRESH on a uprobe PMU sampler (period 1: every call of
 * the probed function is an overflow). The overflow that uses up the
 * refresh count sets pending_kill = POLL_HUP and disables the event
 * (__perf_event_overflow(): event_limit, perf_event_disable_inatomic(),
 * since 6.17 also pmu->stop() at once); the signals are sent from
 * irq_work. Each call waits for its signal (bounded) before the next, so
 * no two overflows share one irq_work run; after the last allowed one the
 * case spends CPU time (the irq_work has run on any architecture) before
 * making more calls, which must then neither count nor signal. No ring is
 * mapped: the signals come from the overflow, not from a ring wakeup.
 *
 * The re-arm is where 6.17 and later fail: the pmu->stop() at the limit
 * leaves hw.state PERF_HES_STOPPED, and a tracing PMU's add()
 * (perf_trace_add()) never clears it, so the uprobe event is dead from
 * then on, while a software event (perf_swevent_add() sets hw.state from
 * PERF_EF_START) re-arms (ioctl/refresh_disables_after_n_overflows). The
 * same holds for tracepoints, kprobes and breakpoints (hw_breakpoint_add()
 * alike); the first 3 overflows are right on every kernel.
 * (pa_refresh_rounds(): the sequence for every implementation.)
 */

__attribute__((noinline)) void pa_upclk_refresh_fn(void);
__attribute__((noinline)) void pa_upclk_refresh_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		pa_upclk_refresh_fn();
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(3) on a uprobe PMU sampling event (period 1, O_ASYNC, F_SETSIG) allows exactly 3 overflows: 3 calls of the probed function are counted and signalled POLL_IN, POLL_IN, POLL_HUP (si_fd the event), after which the event is disabled (16 more calls: count stays 3, no signal); REFRESH(2) re-arms it for exactly 2 more (POLL_IN, POLL_HUP; count 5)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"the event is disabled after the given number of overflows\", Overflow handling: \"POLL_HUP is delivered when the event limit from PERF_EVENT_IOC_REFRESH is reached\"; kernel/events/core.c _perf_event_refresh(), __perf_event_overflow() (event_limit); uprobe hits reach it through perf_swevent_event()",
	.alone = true,
	.covers = "ioctl.REFRESH fd.F_SETSIG fd.O_ASYNC type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
	.timeout = 60,
	.xfail = {
		.from = "6.17",	/* 18dbcbfabfff "perf: Fix the POLL_HUP delivery breakage" */
		.to = NULL,
		.windows = "6.16.8..",	/* its 6.16.y backport (the 2025-09-17 review series) */
		.why = "since 18dbcbfabfff the overflow that uses up the REFRESH limit also calls pmu->stop() (perf_swevent_stop(): hw.state = PERF_HES_STOPPED), and nothing clears it for a uprobe (tracing PMU) event: perf_trace_add() sets PERF_HES_STOPPED without PERF_EF_START but does not clear it with it, so perf_tp_event_match() drops every later hit; neither a second REFRESH nor DISABLE+ENABLE nor a context switch brings the event back (seen on 6.18.44; no upstream fix known)",
		.fix = NULL,
	},
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_upclk_refresh_fn");
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	static const int refresh[] = { 3, 2 };
	struct perf_event_attr attr;
	struct pa_sigs sigs;
	int fd;

	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&sigs, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_refresh_rounds(fd, &sigs, calls, refresh, 2);
	close(fd);
}
