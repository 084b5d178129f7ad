#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PERIOD on a running cpu-clock or task-clock sampler. The
 * clocks sample from an hrtimer, not from perf_swevent_event():
 * __perf_event_period() stops the event (cpu_clock_event_stop() /
 * task_clock_event_stop(): the timer is cancelled, the time left goes to
 * period_left), sets period_left to 0 and starts it again, and
 * perf_swevent_start_hrtimer() with period_left 0 arms the timer for the
 * new sample_period: the new period starts at the ioctl. (The software,
 * uprobe and tracepoint events instead overflow at the next event and run
 * the old period once more: ioctl/period_running_sw_old_period_once.)
 *
 * The old period is 10 s of the clock, the new one 2 ms. 20 ms of CPU time
 * into the old period no sample has come; then the ioctl, and the case
 * spins until K samples came, bounded at 2 s of this thread's CPU time
 * (a fifth of the old period: none of those samples can be the old
 * period's). Each sample carries the clock's count at the expiry
 * (PERF_SAMPLE_READ: perf_swevent_hrtimer() reads the event first), so
 * the timing is checked in the clock's own nanoseconds, whatever the load:
 * the event and its timer run only while this thread is on a CPU (the
 * timer is cancelled at sched-out with the time left kept, and restarted
 * with it at sched-in).
 *
 * Bounds: an hrtimer never expires early, and hrtimer_forward_now()
 * keeps its expiries on the grid of the new period from the ioctl (a
 * late callback, or an expiry in kernel mode that exclude_kernel drops,
 * only skips grid points): the k-th sample's count is at least the count
 * read before the ioctl plus k new periods. The timer runs on
 * CLOCK_MONOTONIC and the count on local_clock(), whose rates differ by
 * tenths of a percent under emulation: 2 % + 0.2 ms is allowed (the
 * allowance of pa_clock_event_vs_cputime()). The switch path only adds to
 * the count (the timer is cancelled before the count is updated at
 * sched-out, and started after prev_count is set at sched-in). No upper
 * bound is put on the spacing: a late expiry on a busy or emulated
 * machine makes it longer; the bound on the wait is what the old period
 * could never meet.
 */
#define OLD_NS	10000000000ULL	/* 10 s */
#define NEW_NS	2000000ULL	/* 2 ms */
#define K	5
#define WAIT_MS	2000
/* the least count of the k-th expiry of the new period, from c */
#define GRID(c, k) ((c) + (k) * NEW_NS - (k) * NEW_NS / 50 - 200000ULL)

static void period_at_once(uint64_t config, const char *name)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(config, OLD_NS);
	uint64_t period = NEW_NS, rec, pre, post, prev = 0, end;
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 2);
	pa_ring_prefault(&r);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(20);
	EXPECT_EQ(pa_ring_head(&r), 0);	/* 20 ms into a 10 s period */
	pre = pa_read_one(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	post = pa_read_one(fd);
	end = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)WAIT_MS * 1000000ULL;
	while (pa_ring_head(&r) < K * rec && pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		pa_busy_loop(100000);	/* ~0.1 ms in user mode a check */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_diag("%s: count %llu before the ioctl, %llu after; %llu bytes of samples",
		name, (unsigned long long)pre, (unsigned long long)post,
		(unsigned long long)pa_ring_head(&r));
	if (pa_ring_head(&r) < K * rec)
		pa_fail("%s: %llu of %d samples within %d ms of CPU time after PERIOD(%llu ns): the old period of %llu ns still runs",
			name, (unsigned long long)(pa_ring_head(&r) / rec), K, WAIT_MS,
			(unsigned long long)NEW_NS, (unsigned long long)OLD_NS);

	while ((h = pa_ring_next(&r))) {
		ASSERT_EQ(h->type, PERF_RECORD_SAMPLE);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		/* on the new period's grid from the ioctl, never early */
		EXPECT_GE(s.read[0], GRID(pre, (uint64_t)(n + 1)));
		/* and not at the end of the old period */
		if (n == 0)
			EXPECT_LT(s.read[0], post + OLD_NS / 2);
		pa_diag("%s: sample %d at count %llu (+%llu)", name, n + 1,
			(unsigned long long)s.read[0],
			(unsigned long long)(s.read[0] - (n ? prev : post)));
		prev = s.read[0];
		n++;
	}
	EXPECT_GE(n, K);
	pa_ring_unmap(&r);
	close(fd);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a running cpu-clock or task-clock sampling event starts the new period at the ioctl: with sample_period 10 s and 20 ms run (no sample yet), PERIOD(2 ms) brings 5 samples within 2 s of CPU time, the k-th at a count (PERF_SAMPLE_READ) of at least the count read before the ioctl plus k times 2 ms (less 2 % + 0.2 ms for the timer's clock)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD: \"updates the overflow period\" (since 3.7 the new period takes effect immediately); kernel/events/core.c __perf_event_period() (stop, period_left = 0, start), perf_swevent_start_hrtimer(), perf_swevent_cancel_hrtimer(), perf_swevent_hrtimer()",
	.covers = "ioctl.PERIOD attr.sample_period sw.CPU_CLOCK sw.TASK_CLOCK sample.READ",
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	period_at_once(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	period_at_once(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
