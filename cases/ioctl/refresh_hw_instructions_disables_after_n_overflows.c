#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_REFRESH on a hardware event: rr and PAPI arm counters this
 * way. PERF_COUNT_HW_INSTRUCTIONS in user space, sample_period P, opened
 * disabled; REFRESH 3 adds 3 to event_limit and enables it. Each overflow
 * (PMI) runs __perf_event_overflow(): POLL_IN, and on the third, with
 * event_limit at 0, POLL_HUP, perf_event_disable_inatomic() and a return
 * of 1, on which the PMI handler stops the counter at once
 * (x86_pmu_handle_irq()/handle_pmi_common(): x86_pmu_stop(event, 0); arm64
 * armv8pmu_handle_irq(): cpu_pmu->disable(event)). So a loop of 6P
 * instructions gives exactly 3 samples, and the count stops near 3P (the
 * first period starts at the REFRESH: period_left = P since the open, and
 * x86_perf_event_set_period()/armpmu_event_set_period() re-arm each later
 * one from where the previous overflow was, the skid included); after
 * that the event is disabled and the count does not move by one.
 *
 * Signals: each PMI queues the irq_work that sends the signal; it runs at
 * the first instruction with interrupts on after the PMI (the self-IPI of
 * arch_irq_work_raise()), long before the next overflow P = 20M user
 * instructions later: so exactly 3 signals, POLL_IN, POLL_IN, POLL_HUP,
 * si_fd the event's fd. F_SETSIG(SIGRTMIN) queues them.
 *
 * Counts of real hardware are bounds: the count after the third overflow is
 * 3P within P/2 (the skid of a PMI is hundreds of instructions). P = 20M
 * user instructions keeps overflows under 1000 a second on any CPU
 * (pa_loop3() runs at most one iteration, 3 instructions, a cycle), so a
 * throttle is only possible where perf_event_max_sample_rate has fallen
 * to 2000 or less (pa_throttled_in_burst(2)). A multiplexed counter
 * SKIPs (pa_hw_read_group()).
 */
#define P	20000000ULL	/* sample_period, a multiple of 64 */
#define N	3		/* REFRESH */
#define LOOP	40000000ULL	/* pa_loop3() iterations: 120M instructions, 6P */

static struct pa_sigs got;

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH 3 on a sampling PERF_COUNT_HW_INSTRUCTIONS event (period 20M): a loop of 6 periods gives "
		     "exactly 3 overflows (3 samples; signals POLL_IN, POLL_IN, POLL_HUP, si_fd the event), the count stops within half a "
		     "period of 3 periods, and the event is then disabled: more work moves neither the count nor the ring, and no signal comes",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a number "
	       "of overflows specified by the argument, after which it is disabled. Subsequent calls of this ioctl add the argument value to the "
	       "current count\"; Overflow handling: \"This ioctl adds to a counter that decrements each time the event overflows. When nonzero, "
	       "POLL_IN is indicated, but once the counter reaches 0 POLL_HUP is indicated and the underlying event is disabled\"; kernel/events/core.c __perf_event_overflow() "
	       "(event_limit); arch/x86/events/core.c x86_pmu_handle_irq() (x86_pmu_stop() when perf_event_overflow() returns 1), "
	       "x86_perf_event_set_period()",
	.covers = "ioctl.REFRESH type.HARDWARE hw.INSTRUCTIONS fd.F_SETSIG fd.O_ASYNC",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd, samples = 0, throttled = 0;
	uint64_t c1, c2, head;
	struct pa_ring r;
	siginfo_t si;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = P;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PA_HW_GROUP_FMT;
	a.disabled = 1;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, N));
	pa_loop3(LOOP);
	/* disabled by now (or, on a kernel that ignores the limit, still
	 * running: then the times are equal too and the checks below fail) */
	pa_hw_read_group(fd, &c1, 1, true);
	while (got.n < N && pa_sig_wait(SIGRTMIN, &si, 10000)) {
		pa_sigs_record(&got, &si);
		if (si.si_code == POLL_HUP)
			break;
	}
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	head = pa_ring_head(&r);

	/* disabled: nothing counts, nothing is written or signalled */
	pa_loop3(LOOP / 2);
	pa_work_cpu_ms(20);
	pa_hw_read_group(fd, &c2, 1, false);
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	EXPECT_EQ(pa_ring_head(&r), head);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	pa_diag("count %llu at the limit, %llu after more work; %d samples; %d signals; %d throttle records",
		(unsigned long long)c1, (unsigned long long)c2, samples, got.n, throttled);
	if (throttled)
		pa_throttled_in_burst(2);

	EXPECT_EQ(samples, N);
	EXPECT_GE(c1, N * P - P / 2);
	EXPECT_LE(c1, N * P + P / 2);
	EXPECT_EQ(c2, c1);		/* disabled: the count stands still */
	ASSERT_EQ(got.n, N);
	for (int i = 0; i < N; i++) {
		bool last = i == N - 1;

		EXPECT_EQ(got.code[i], last ? POLL_HUP : POLL_IN);
		EXPECT_EQ(got.band[i], last ? (long)(POLLHUP | POLLERR) : (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
