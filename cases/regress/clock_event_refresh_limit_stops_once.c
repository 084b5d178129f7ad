#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * eb3182ef0405: since 18dbcbfabfff (6.17) the overflow that exhausts a
 * PERF_EVENT_IOC_REFRESH limit stops the event at once (pmu->stop()). For
 * cpu-clock and task-clock the overflow runs inside the event's own
 * hrtimer callback, and their stop() did hrtimer_cancel() on that very
 * timer: the CPU spun forever waiting for the callback it was in (a hard
 * lockup, async-profiler's usage). The fix cancels with
 * hrtimer_try_to_cancel() and marks the event PERF_HES_STOPPED, so the
 * callback ends the timer.
 *
 * The correct behaviour, on every kernel outside that range: REFRESH(1)
 * gives exactly one overflow (one sample, one POLL_HUP signal), after
 * which the event is disabled and its count frozen.
 *
 * The count at the overflow is at least the period less one resolution
 * of CLOCK_MONOTONIC: the timer runs on CLOCK_MONOTONIC and the count on
 * local_clock(). Where CLOCK_MONOTONIC advances only at ticks (the jiffies
 * clocksource: the sweep's noacpi and minimal kernels), the timer is armed
 * at the last tick's time and expires at the first tick past it plus the
 * period: up to one tick early by local_clock() (925 us of count for a
 * 1 ms period seen there). With high-resolution timers the resolution is
 * 1 ns and the bound is the period.
 */
#define PERIOD_NS	1000000ULL	/* 1 ms of the clock */

static void refresh_once(uint64_t config, const char *name)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(config, PERIOD_NS);
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_sigs sigs;
	struct pa_ring r;
	siginfo_t si;
	uint64_t c1;
	int fd, got = 0, samples = 0;

	attr.disabled = 1;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	pa_sigs_route(&sigs, fd, SIGRTMIN);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	/* user-mode CPU time until the one overflow is signalled (the
	 * event excludes the kernel: a tick in the kernel does not count) */
	for (int ms = 0; ms < 3000 && !got; ms++) {
		pa_work_cpu_ms(1);
		if (pa_sig_wait(sigs.sig, &si, 0)) {
			pa_sigs_record(&sigs, &si);
			got = 1;
		}
	}
	if (!got)
		pa_fail("%s: no overflow signal within 3 s of CPU time", name);
	c1 = pa_read_one(fd);
	/* disabled now: 50 more periods neither count nor signal */
	pa_work_cpu_ms(50);
	EXPECT_EQ(pa_read_one(fd), c1);
	while (pa_sig_wait(sigs.sig, &si, 0))
		pa_sigs_record(&sigs, &si);
	pa_diag("%s: %d signal(s), count %llu ns", name, sigs.n,
		(unsigned long long)c1);
	EXPECT_EQ(sigs.n, 1);
	if (sigs.n >= 1) {
		EXPECT_EQ(sigs.code[0], POLL_HUP);
		EXPECT_EQ(sigs.fd[0], fd);
	}
	EXPECT_GE(c1 + pa_clock_res_ns(CLOCK_MONOTONIC), PERIOD_NS);

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			continue;
		samples++;
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		EXPECT_EQ(s.period, PERIOD_NS);
	}
	EXPECT_EQ(samples, 1);
	pa_ring_unmap(&r);
	close(fd);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(1) on a sampling cpu-clock or task-clock event gives exactly one overflow (one sample, one POLL_HUP signal with si_fd the event) and then the event is disabled: its count stops, having reached the period (less one resolution of CLOCK_MONOTONIC); the overflow stopping the event from inside its own hrtimer must not hang the CPU",
	.ref = "\"perf/core: Fix system hang caused by cpu-clock usage\" eb3182ef0405 (6.18, CVE-2025-40327; 6.17 stable): kernel/events/core.c perf_swevent_cancel_hrtimer() hrtimer_try_to_cancel(), cpu_clock_event_stop()/task_clock_event_stop() PERF_HES_STOPPED",
	.covers = "ioctl.REFRESH sw.CPU_CLOCK sw.TASK_CLOCK",
	.fix = { .commit = "eb3182ef0405", .subject = "perf/core: Fix system hang caused by cpu-clock usage", .release = "6.18", .cve = "CVE-2025-40327", .stable = "6.17" },
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "6.17",	/* 18dbcbfabfff "perf: Fix the POLL_HUP delivery breakage" */
		.to = "6.18",
		.why = "the overflow exhausting the REFRESH limit calls cpu_clock_event_stop() from the event's own hrtimer callback, whose hrtimer_cancel() waits on itself: hard lockup",
		.fix = "eb3182ef0405",
		/* taken by 6.17-stable (review 2025-11-11); the 6.17.N is not
		 * in Debian's changelogs. 6.12 and 6.1 never took 18dbcbfabfff:
		 * their __perf_event_overflow() only disables in atomic. */
	},
	.timeout = 20,
) {
	refresh_once(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	refresh_once(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
