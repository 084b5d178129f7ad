#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

/*
 * "a signal is provided for every overflow", on a hardware event: PAPI's
 * and rr's overflow handling rests on it. PERF_COUNT_HW_INSTRUCTIONS in
 * user space, sample_period P, wakeup_events 0, O_ASYNC with
 * F_SETSIG(SIGRTMIN) (queued, so none is merged). Each overflow (PMI) runs
 * __perf_event_overflow(): one sample in the ring and pending_kill =
 * POLL_IN with the irq_work that sends it (perf_pending_irq() ->
 * perf_event_wakeup() -> kill_fasync()). That irq_work runs at the first
 * instruction with interrupts on after the PMI (the self-IPI of
 * arch_irq_work_raise()), long before the next overflow P = 20M user
 * instructions later, so no two overflows share one run: signals ==
 * samples, exactly, each POLL_IN with si_fd the event's fd. The samples
 * stay far below the half-buffer wakeup, so the signals are the
 * overflows', not the ring's.
 *
 * The number of overflows is a bound, not an exact count: the overflows
 * come every P counted instructions (x86_perf_event_set_period() re-arms
 * each period from where the last one overflowed, the skid included), so
 * samples <= floor(count / P), and only an overflow in the last few
 * hundred instructions before the DISABLE can lose its PMI: samples >=
 * floor(count / P) - 1; the loop alone is 210M instructions, so >= 9.
 * P keeps overflows under 1000 a second on any CPU (pa_loop3() runs at
 * most one iteration, 3 instructions, a cycle): a throttle is only
 * possible where perf_event_max_sample_rate has fallen to 2000 or less
 * (pa_throttled_in_burst(2)). A multiplexed counter SKIPs.
 */
#define P	20000000ULL	/* sample_period, a multiple of 64 */
#define LOOP	70000000ULL	/* pa_loop3() iterations: 210M instructions */

static struct pa_sigs got;

PERFABI_CASE(
	.assertion = "with O_ASYNC, F_SETSIG and wakeup_events 0, every overflow of a sampling PERF_COUNT_HW_INSTRUCTIONS event (period "
		     "20M) sends one signal, POLL_IN with si_fd the event's fd: signals == samples, and samples is floor(count / period) "
		     "or one less, >= 9 over a 210M-instruction loop",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every "
	       "overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c __perf_event_overflow() "
	       "(pending_kill = POLL_IN, irq_work_queue(&event->pending_irq)); arch/x86/events/core.c x86_pmu_handle_irq(), "
	       "x86_perf_event_set_period()",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.HARDWARE hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd, samples = 0, throttled = 0;
	struct pa_ring r;
	siginfo_t si;
	uint64_t c;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = P;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PA_HW_GROUP_FMT;
	a.wakeup_events = 0;
	a.disabled = 1;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(LOOP);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &c, 1, true);
	/* the samples stayed below the half-buffer wakeup */
	ASSERT_LE(pa_ring_head(&r), r.data_size / 2);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	pa_sigs_settle(&got, (uint64_t)samples);
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	pa_diag("count %llu (%llu periods), %d samples, %d signals, %d throttle records", (unsigned long long)c,
		(unsigned long long)(c / P), samples, got.n, throttled);
	if (throttled)
		pa_throttled_in_burst(2);

	EXPECT_LE((uint64_t)samples, c / P);
	EXPECT_GE((uint64_t)samples + 1, c / P);
	EXPECT_GE((uint64_t)samples, 3 * LOOP / P - 1);
	EXPECT_EQ(got.n, samples);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
