#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_REFRESH on the cycle counter, exactly. A user-only
 * PERF_COUNT_HW_CPU_CYCLES sampler, period P, opened disabled, signals
 * routed (F_SETOWN, F_SETSIG(SIGRTMIN), O_ASYNC). REFRESH 3 adds 3 to
 * event_limit and enables it; the first period starts there
 * (period_left = P since the open). Each overflow runs
 * __perf_event_overflow(): POLL_IN, and at the third, event_limit 0:
 * POLL_HUP, perf_event_disable_inatomic() and a return of 1, on which
 * armv8pmu_handle_irq() stops the counter at once (cpu_pmu->disable()).
 *
 * Under QEMU -icount shift=0 (PERFABI_PMU_EXACT) the cycle counter counts
 * exactly the user instructions and its overflow interrupt is taken
 * before the next user instruction (icount ends the translation block at
 * the overflow timer's deadline; hw/sample_read_group_cycles_instructions_member
 * checks that the k-th sample reads exactly k periods): over a loop of 6.5
 * periods exactly 3 samples and 3 signals POLL_IN, POLL_IN, POLL_HUP (si_fd
 * the event), and the count stops at exactly 3 P. More work then moves
 * neither the count nor the ring.
 */
#define P	1200000ULL
#define N	3
#define HALVES	13		/* 6.5 periods */

static struct pa_sigs got;

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH 3 on a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M) over 6.5 periods gives "
		     "exactly 3 overflows (3 samples; signals POLL_IN, POLL_IN, POLL_HUP with si_fd the event), the count stops at exactly 3 "
		     "periods, and more work moves neither the count nor the ring (exact PMU)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a "
	       "number of overflows specified by the argument, after which it is disabled\"; Overflow handling: \"once the counter reaches 0 "
	       "POLL_HUP is indicated and the underlying event is disabled\"; kernel/events/core.c __perf_event_overflow() (event_limit); "
	       "drivers/perf/arm_pmuv3.c armv8pmu_handle_irq() (cpu_pmu->disable() when perf_event_overflow() returns 1)",
	.covers = "hw.CPU_CYCLES ioctl.REFRESH type.HARDWARE fd.F_SETSIG fd.O_ASYNC",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0;
	uint64_t c1, c2, head;
	struct pa_ring r;
	siginfo_t si;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP);
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);

	pa_hws_loop3(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, N));
	pa_hws_loop3(HALVES * (P / 6));
	c1 = pa_hws_count(fd);
	pa_sigs_settle(&got, N);
	head = pa_ring_head(&r);

	/* disabled: nothing counts, nothing is written or signalled */
	pa_hws_loop3(HALVES * (P / 6));
	pa_hw_read_group(fd, &c2, 1, false);
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	EXPECT_EQ(pa_ring_head(&r), head);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	pa_diag("count %llu at the limit (%lld from 3 periods), %llu after more work; %d samples, %d signals", (unsigned long long)c1,
		(long long)(c1 - N * P), (unsigned long long)c2, samples, got.n);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));

	EXPECT_EQ(samples, N);
	EXPECT_EQ(c1, N * P);
	EXPECT_EQ(c2, c1);
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
