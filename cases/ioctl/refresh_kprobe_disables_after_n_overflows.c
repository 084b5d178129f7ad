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
 * A kprobe overflows through kprobe_perf_func() -> perf_tp_event() ->
 * perf_swevent_event() -> perf_swevent_overflow(); period 1, so every hit
 * is an overflow. The probe sits on the getppid syscall's entry function
 * and the event on this task only. A kprobe fires with kernel registers,
 * so exclude_kernel stays clear (perf_tp_event_match() would drop every
 * hit), and the open follows the kprobe PMU's rules
 * (pa_kprobe_expected_errno()): where they refuse it, the refusal is what
 * is checked (pa_refresh_rounds(), the sequence for every
 * implementation). (A second REFRESH does not re-enable a kprobe on 6.17 and
 * later: see ioctl/refresh_tracepoint_reenables_after_limit, whose
 * perf_trace_add() defect kprobes share; this case stops before that.)
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(n) on a disabled kprobe sampling event (a kprobe on the getppid syscall's entry function) enables it for exactly n overflows, each signalled (si_fd the event) POLL_IN but the n-th POLL_HUP, after which the event is disabled: later hits neither count nor signal",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a number of overflows specified by the argument, after which it is disabled\"; \"An overflow notification with POLL_IN set will happen on each overflow until the count reaches 0; when that happens a notification with POLL_HUP set is sent and the event is disabled\"; kernel/events/core.c __perf_event_overflow(), perf_tp_event() -> perf_swevent_event(); kernel/trace/trace_kprobe.c kprobe_perf_func()",
	.covers = "ioctl.REFRESH type.dynamic attr.kprobe_func fd.F_SETSIG",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
	.timeout = 30,
) {
	struct perf_event_attr a = pa_kprobe_attr(pa_syscall_symbol("getppid"), false);
	int want = pa_kprobe_expected_errno();
	static const int refresh[] = { 3 };
	int fd;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal was the check */
	ASSERT_GE(fd, 0);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_refresh_rounds(fd, &got, calls, refresh, 1);
	close(fd);
}
