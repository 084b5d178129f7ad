#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>

/*
 * "A signal is provided for every overflow, even if wakeup_events is not
 * set", on a uprobe PMU sampler (period 1: every call of the probed
 * function is an overflow). The uprobe hit reaches __perf_event_overflow()
 * through perf_swevent_event(), which sets pending_kill = POLL_IN and
 * queues the irq_work that sends the signal, whatever the ring's wakeup
 * state; the ring (wakeup_events 0) is never brought near its half-buffer
 * watermark, so no ring wakeup is involved.
 *
 * K calls, each waiting (bounded at 10 s) for its signal before the next,
 * so that no two overflows share one irq_work run. F_SETSIG(SIGRTMIN)
 * queues every signal; all are POLL_IN with si_fd the event's fd, and
 * there are exactly as many as calls made while the event was enabled.
 */
#define K 8

__attribute__((noinline)) void pa_upclk_sigio_fn(void);
__attribute__((noinline)) void pa_upclk_sigio_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "a uprobe PMU sampling event (period 1, wakeup_events 0) with O_ASYNC and F_SETSIG sends one signal per overflow: 8 calls of the probed function, each awaited, give exactly 8 signals, each POLL_IN with si_fd the event, and a count of 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c __perf_event_overflow() (pending_kill, perf_pending_irq()), reached from __uprobe_perf_func() -> perf_tp_event() -> perf_swevent_event()",
	.alone = true,
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_upclk_sigio_fn");
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	struct pa_sigs got;
	struct pa_ring r;
	siginfo_t si;
	uint64_t n;
	int fd;

	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_upclk_sigio_fn();			/* disabled: nothing */
	ASSERT_EQ(pa_sig_wait(SIGRTMIN, &si, 0), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= K; step++) {
		pa_upclk_sigio_fn();
		if (!pa_sig_wait(SIGRTMIN, &si, 10000)) {
			pa_fail("no signal within 10 s of overflow %d", step);
			pa_abort();
		}
		pa_sigs_record(&got, &si);
		while (pa_sig_wait(SIGRTMIN, &si, 0))
			pa_sigs_record(&got, &si);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_upclk_sigio_fn();			/* disabled again */
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	pa_diag("%llu overflows, %d signals, %llu bytes in the ring",
		(unsigned long long)n, got.n, (unsigned long long)pa_ring_head(&r));
	/* the samples stayed below the half-buffer wakeup */
	ASSERT_LE(pa_ring_head(&r), r.data_size / 2);
	EXPECT_EQ(n, (uint64_t)K);
	EXPECT_EQ(got.n, K);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
