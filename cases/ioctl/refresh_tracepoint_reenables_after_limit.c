#include "perfabi.h"

#include <signal.h>
#include <sys/syscall.h>

static struct pa_sigs got;	/* the signals taken, in order */

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * REFRESH enables the event (_perf_event_refresh(): event_limit +=
 * n, _perf_event_enable()), so an event its last refresh count disabled
 * is enabled again by the next REFRESH and counts, overflows and signals
 * as before: ioctl/refresh_disables_after_n_overflows checks this for a
 * software event.
 *
 * For a tracepoint it broke in 6.17: 18dbcbfabfff ("perf: Fix the POLL_HUP
 * delivery breakage") also stops the event when event_limit reaches 0
 * (event->pmu->stop(event, 0) in __perf_event_overflow()).
 * perf_swevent_stop() sets hw.state = PERF_HES_STOPPED, and nothing of a
 * tracepoint clears it again: perf_trace_add() only sets it (without
 * PERF_EF_START), unlike perf_swevent_add(), and perf_swevent_start() is
 * never called on the enable path. perf_tp_event_match() then drops every
 * hit: the event is enabled and "running" (its time_running advances) yet
 * counts nothing, after REFRESH and after a plain ENABLE alike. kprobe and
 * uprobe events share perf_trace_add() and so the defect.
 *
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) sees every call; period
 * 1, so every hit is an overflow.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH on a tracepoint sampling event that its previous refresh count disabled enables it again for the new number of overflows: after REFRESH(1) and its one overflow (POLL_HUP, then disabled: 16 more calls do not count), REFRESH(2) makes the next 2 getppid() calls count and signal POLL_IN, then POLL_HUP, and the event is disabled again",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a number of overflows specified by the argument, after which it is disabled\"; kernel/events/core.c _perf_event_refresh(), __perf_event_overflow() (event_limit, pmu->stop since 18dbcbfabfff); kernel/trace/trace_event_perf.c perf_trace_add()",
	.covers = "ioctl.REFRESH type.TRACEPOINT fd.F_SETSIG",
	.tracefs = true,
	.probe = pa_probe_self_perf,
	.timeout = 40,
	.xfail = {
		/* mainline from 6.17 (18dbcbfabfff, merged for 6.17-rc5);
		 * 6.16.y from its stable backport in the 2025-09-17 review
		 * series (6.16.8); not fixed when this was written */
		.from = "6.17",
		.to = NULL,
		.windows = "6.16.8..",
		.why = "18dbcbfabfff (\"perf: Fix the POLL_HUP delivery breakage\") stops the event when its refresh count runs out; perf_swevent_stop() leaves PERF_HES_STOPPED in hw.state, which perf_trace_add() never clears when the event is scheduled in again, so perf_tp_event_match() drops every later hit: a tracepoint re-enabled by REFRESH (or ENABLE) counts nothing",
		.fix = NULL,
	},
) {
	struct perf_event_attr a = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	static const int refresh[] = { 1, 2 };	/* the first runs out; the second enables it again */
	int fd;

	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_refresh_rounds(fd, &got, calls, refresh, 2);
	close(fd);
}
