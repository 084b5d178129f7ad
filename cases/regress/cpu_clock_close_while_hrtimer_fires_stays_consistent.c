#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * ff5860f5088e: eb3182ef0405 (6.18; 6.17.8) made the cpu-clock and
 * task-clock stop path cancel the event's hrtimer with
 * hrtimer_try_to_cancel(), which gives up while the callback runs, so
 * the timer could still be active when the event was freed (a
 * use-after-free of the event from the timer). The fix installs a
 * ->destroy handler that does a full hrtimer_cancel() on the free path.
 *
 * No reliable reproducer is known: this is a bounded stress of the
 * configuration. A thread spins on one CPU; from another, cpu-clock
 * samplers with a 10 us period are opened on it, left to fire, and
 * closed while their timer fires, over and over. Every other one is
 * armed with REFRESH(1), so its one overflow stops it from inside its
 * own callback (where the try-to-cancel gives up). Every open, ioctl and
 * close must succeed, a REFRESH(1) event waited for must have counted at
 * least one period, and the kernel must log nothing (the runner fails the
 * case on a KASAN or WARNING line).
 *
 * The freed event is used only by the timer callback after the free: the
 * case's own checks cannot see it, only the kernel log can, on a kernel
 * that reports it (KASAN; .fix.log_only).
 *
 * Not checked: that a REFRESH(1) event stays stopped once it counted a
 * period. On Debian's 6.12.117 under QEMU TCG such an event went on
 * counting for a second and more in 2 runs of 7. The 6.12 source explains
 * it, and it is no kernel bug: a clock's count is time, added whenever
 * the event is read (cpu_clock_event_update() from pmu->read), whether or
 * not its hrtimer has fired; only the timer's expiry overflows, uses up
 * the limit and queues the disable (__perf_event_overflow():
 * perf_event_disable_inatomic(), a hard irq_work), and an expiry that
 * lands in kernel mode is excluded (exclude_kernel: perf_exclude_event()
 * in perf_swevent_hrtimer()) and re-arms the timer without using the
 * limit. So "counted at least one period" does not mean "overflowed"
 * where the guest's timers run late, and the event counts on until an
 * expiry in user mode. regress/clock_event_refresh_limit_stops_once
 * checks the stop on what does prove the overflow: it waits for the one
 * POLL_HUP signal, then the count must stay still.
 */
#define PERIOD_NS	10000ULL	/* the shortest period cpu-clock takes */
#define BUDGET_MS	3000
#define MAX_ITERS	20000

static atomic_int stop;
static atomic_int tid;

static void *spinner(void *arg)
{
	int cpu = *(int *)arg;

	pa_pin_cpu(cpu);
	atomic_store(&tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&stop))
		__asm__ volatile("" ::: "memory");
	return NULL;
}

/* spin for about ns of wall time: the close lands at varying points */
static void spin_ns(uint64_t ns)
{
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);

	while (pa_clock_ns(CLOCK_MONOTONIC) - t0 < ns)
		;
}

PERFABI_CASE(
	.assertion = "closing cpu-clock samplers (10 us period, plain or armed with REFRESH(1)) on a thread busy on another CPU while their hrtimer fires never leaves the timer behind: every open, ioctl and close succeeds, a REFRESH(1) event counts at least one period, over a bounded stress",
	.ref = "\"perf: Ensure swevent hrtimer is properly destroyed\" ff5860f5088e (6.19, CVE-2026-23014; stable 6.18.6): kernel/events/core.c perf_swevent_init_hrtimer() sets event->destroy = perf_swevent_destroy_hrtimer (hrtimer_cancel() on free)",
	.alone = true,
	.covers = "sw.CPU_CLOCK ioctl.REFRESH",
	.fix = { .commit = "ff5860f5088e", .subject = "perf: Ensure swevent hrtimer is properly destroyed", .release = "6.19", .cve = "CVE-2026-23014", .stable = "6.18.6",
		 .log_only = true },
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "6.17.8",	/* eb3182ef0405 (6.18), backported to 6.17.8 */
		.to = "6.19",
		.why = "perf_swevent_cancel_hrtimer() only tries to cancel: the cpu-clock hrtimer can still be active when the event is freed (use-after-free)",
		.fix = "ff5860f5088e",
		/* CVE-2026-23014: fixed in 6.18.6; 6.17 ended without it.
		 * 6.12 and 6.1 never took eb3182ef0405: hrtimer_cancel()
		 * there (checked in Debian's 6.12.117 and 6.1 trees) */
		.fixed_in = "6.18.6",
	},
	.timeout = 20,
) {
	struct pa_kver k = pa_kernel();
	int cpus[2], iters = 0, refreshed = 0, waited = 0, bad = 0;
	uint64_t t0;
	pthread_t th;

	if (k.major == 6 && k.minor == 17 && k.patch < 8)
		pa_skip("6.17.%d hangs on REFRESH in cpu-clock's own hrtimer (before eb3182ef0405)",
			k.patch);
	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on one CPU only");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	ASSERT_EQ(pthread_create(&th, NULL, spinner, &cpus[1]), 0);
	while (!atomic_load(&tid))
		sched_yield();

	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	while (iters < MAX_ITERS && !bad &&
	       pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_MS * 1000000ULL) {
		struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, PERIOD_NS);
		bool refresh = iters & 1;
		int fd;

		attr.disabled = refresh;
		fd = pa_perf_open(&attr, atomic_load(&tid), -1, -1, 0);
		if (fd < 0) {
			pa_fail("iteration %d: open: %s", iters, pa_errno_name(errno));
			break;
		}
		if (refresh && ioctl(fd, PERF_EVENT_IOC_REFRESH, 1)) {
			pa_fail("iteration %d: REFRESH: %s", iters, pa_errno_name(errno));
			bad++;
		}
		refreshed += refresh;
		if (refresh && iters % 64 == 1) {
			/* now and then: wait (at most 1 s) until it counted
			 * one period: its timer ran. Whether it then stays
			 * stopped is not checked here (see the note above) */
			uint64_t w0 = pa_clock_ns(CLOCK_MONOTONIC), c1;

			while ((c1 = pa_read_one(fd)) < PERIOD_NS &&
			       pa_clock_ns(CLOCK_MONOTONIC) - w0 < 1000000000ULL)
				;
			if (c1 < PERIOD_NS && !bad++)
				pa_fail("iteration %d: REFRESH(1) count %llu after 1 s (want >= %llu)",
					iters, (unsigned long long)c1, (unsigned long long)PERIOD_NS);
			waited++;
		} else {
			/* close within a few periods: the timer is firing */
			spin_ns((uint64_t)(iters % 7) * PERIOD_NS);
		}
		if (close(fd) && !bad++)
			pa_fail("iteration %d: close: %s", iters, pa_errno_name(errno));
		iters++;
	}
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	pa_diag("%d samplers closed while firing (%d armed with REFRESH(1), %d of those waited out) in %llu ms",
		iters, refreshed, waited,
		(unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));
	EXPECT_GT(iters, 0);
	EXPECT_GT(waited, 0);
	EXPECT_EQ(bad, 0);
}
