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
 * The overflow that uses up the refresh count sets POLL_HUP and disables
 * the event from the same irq_work that sends the signal
 * (__perf_event_overflow(): event_limit, perf_event_disable_inatomic()).
 * A tracepoint overflows through perf_tp_event() -> perf_swevent_event()
 * -> perf_swevent_overflow(); period 1, so every hit is an overflow.
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) sees every call.
 * (pa_refresh_rounds(), the sequence for every implementation; re-arming
 * with a second REFRESH is
 * ioctl/refresh_tracepoint_reenables_after_limit's.)
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(n) on a disabled tracepoint sampling event enables it for exactly n overflows, each signalled (si_fd the event) POLL_IN but the n-th POLL_HUP, after which the event is disabled: later hits neither count nor signal",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a number of overflows specified by the argument, after which it is disabled\"; \"An overflow notification with POLL_IN set will happen on each overflow until the count reaches 0; when that happens a notification with POLL_HUP set is sent and the event is disabled\"; kernel/events/core.c __perf_event_overflow(), perf_tp_event() -> perf_swevent_event()",
	.covers = "ioctl.REFRESH type.TRACEPOINT fd.F_SETSIG",
	.tracefs = true,
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr a = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	static const int refresh[] = { 3 };
	int fd;

	a.exclude_kernel = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_refresh_rounds(fd, &got, calls, refresh, 1);
	close(fd);
}
