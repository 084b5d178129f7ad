#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * On the hrtimer clocks (cpu-clock, task-clock) the exclude bits filter
 * only the samples. The count is time: cpu_clock_event_*() and
 * task_clock_event_*() add up local_clock() or ctx->time while the event
 * is on and never look at the bits (attr/exclude_all_bits_task_clock_
 * counts_unchanged pins that for task-clock's count). Each expiry of the
 * event's hrtimer runs perf_swevent_hrtimer(): pmu->read, then a sample
 * only where perf_exclude_event(event, get_irq_regs()) passes:
 * exclude_user drops an expiry that interrupted user mode, exclude_kernel
 * one that interrupted the kernel. The timer is re-armed either way.
 *
 * For each clock, two samplers of this thread (period 1 ms, sample_type
 * TID), on throughout a user-mode spin (pa_busy_loop(), 0.1 ms between
 * checks of the ring): U with exclude_kernel writes only samples with
 * PERF_RECORD_MISC_USER, and the spin goes on until U has K = 10 of them
 * (bounded at 5 s of CPU time: most of the spin is user mode, so most
 * expiries interrupt it). X with exclude_user and exclude_kernel writes
 * nothing (every regs is user or kernel mode), while its count is at least
 * half the thread's CPU time over the spin (the PA_WORKED_NS_MIN rule).
 * exclude_kernel = 1 on both: any identity may open them.
 */
#define PERIOD_NS	1000000ULL	/* 1 ms */
#define K		10
#define WAIT_MS		5000

static void clock_filters_samples(uint64_t config, const char *name)
{
	struct perf_event_attr u = pa_sw_sampling_attr(config, PERIOD_NS);
	struct perf_event_attr x;
	const struct perf_event_header *h;
	struct pa_ring ru, rx;
	struct pa_sample s;
	uint64_t rec, t0, t1, end, cx;
	int fu, fx, n = 0, kernel = 0;

	u.disabled = 1;
	u.sample_type = PERF_SAMPLE_TID;
	x = u;
	x.exclude_user = 1;		/* and exclude_kernel, from pa_sw_attr() */
	rec = pa_sample_size(&u, NULL);
	fu = ASSERT_OPEN(&u, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	fx = ASSERT_OPEN(&x, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&ru, fu, 4);
	pa_ring_map(&rx, fx, 1);
	pa_ring_prefault(&ru);
	pa_ring_prefault(&rx);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */

	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fu, PERF_EVENT_IOC_ENABLE, 0));
	t0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	end = t0 + (uint64_t)WAIT_MS * 1000000ULL;
	do
		pa_busy_loop(100000);	/* ~0.1 ms in user mode a check */
	while (pa_ring_head(&ru) < K * rec && pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end);
	t1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ASSERT_OK(ioctl(fu, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_DISABLE, 0));
	cx = pa_read_one(fx);

	while ((h = pa_ring_next(&ru))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("%s: U: unexpected record type %u", name, h->type);
			continue;
		}
		if (!pa_sample_parse(&u, h, &s))
			pa_abort();
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
			kernel++;
		n++;
	}
	pa_diag("%s: U (exclude_kernel): %d samples, %d not user mode; X (exclude_user, exclude_kernel): data_head %llu, count %llu ns "
		"over %llu ns of the thread's CPU time", name, n, kernel, (unsigned long long)pa_ring_head(&rx),
		(unsigned long long)cx, (unsigned long long)(t1 - t0));
	if (n < K)
		pa_fail("%s: U wrote %d samples (want %d) in %llu ns of mostly user-mode CPU time at a period of %llu ns", name, n, K,
			(unsigned long long)(t1 - t0), (unsigned long long)PERIOD_NS);
	EXPECT_EQ(kernel, 0);			/* exclude_kernel: user mode only */
	EXPECT_EQ(pa_ring_head(&rx), 0);	/* both bits: no sample at all */
	EXPECT_GE(cx, (t1 - t0) / 2);		/* but the clock counted on */
	pa_ring_unmap(&ru);
	pa_ring_unmap(&rx);
	close(fu);
	close(fx);
}

PERFABI_CASE(
	.assertion = "on cpu-clock and task-clock the exclude bits filter the samples, not the count: a 1 ms sampler with "
		     "exclude_kernel writes only PERF_RECORD_MISC_USER samples (10 of them over a user-mode spin), one with "
		     "exclude_user and exclude_kernel writes none over the same spin, while its count is at least half the thread's CPU "
		     "time",
	.ref = "perf_event_open(2), exclude_user: \"If this bit is set, the count excludes events that happen in user space\"; "
	       "exclude_kernel; kernel/events/core.c perf_swevent_hrtimer() (perf_exclude_event() on get_irq_regs() before "
	       "perf_event_overflow(); the timer re-armed either way), perf_exclude_event(), cpu_clock_event_read(), "
	       "task_clock_event_read()",
	.covers = "attr.exclude_user attr.exclude_kernel sw.CPU_CLOCK sw.TASK_CLOCK record.SAMPLE",
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
	.timeout = 40,
) {
	clock_filters_samples(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	clock_filters_samples(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
