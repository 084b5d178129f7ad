#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

/*
 * Overflow signals of the cycle counter, counted exactly. A user-only
 * PERF_COUNT_HW_CPU_CYCLES sampler, period P, wakeup_events 1, routed with
 * F_SETOWN, F_SETSIG(SIGRTMIN) (queued: none merged) and O_ASYNC. Each
 * overflow (armv8pmu_handle_irq() -> perf_event_overflow()) writes a
 * sample, whose output wakes the ring (wakeup_events 1: every record) and
 * sets pending_kill = POLL_IN; the irq_work (perf_pending_irq() ->
 * perf_event_wakeup() -> kill_fasync(POLL_IN)) runs before the interrupt
 * returns to user space, long before the next overflow P user
 * instructions later: one SIGRTMIN per overflow, si_code POLL_IN, si_band
 * POLLIN | POLLRDNORM, si_fd the event's fd. Under the exact PMU 8.5
 * periods cross exactly 8 overflows (hw/sample_period_cycles_exact_samples
 * gives the rule): exactly 8 signals. The signal stays blocked while the
 * loop runs, so no handler adds to the count.
 */
#define P	1200000ULL
#define M	8

static struct pa_sigs got;

PERFABI_CASE(
	.assertion = "with F_SETOWN, F_SETSIG, O_ASYNC and wakeup_events 1, a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M) "
		     "sends exactly one signal per overflow: 8 signals over 8.5 periods, each si_code POLL_IN, si_band POLLIN|POLLRDNORM, "
		     "si_fd the event's fd (exact PMU)",
	.ref = "perf_event_open(2), Overflow handling: \"Events can be set to notify when a threshold is crossed ... using the fcntl(2) "
	       "... F_SETOWN and F_SETSIG\", wakeup_events; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c __perf_event_overflow() "
	       "(pending_kill = POLL_IN), perf_event_wakeup(); kernel/events/ring_buffer.c perf_output_wakeup()",
	.covers = "hw.CPU_CYCLES fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0;
	struct pa_ring r;
	siginfo_t si;
	uint64_t c;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP);
	a.wakeup_events = 1;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	pa_sigs_settle(&got, M);
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	pa_diag("%d samples", samples);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("signals", (uint64_t)got.n, c, P, M);
	EXPECT_EQ(samples, M);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
