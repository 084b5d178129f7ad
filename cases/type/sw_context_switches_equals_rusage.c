#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>

#define SLEEPS 20

/*
 * __schedule() increments exactly one of prev->nvcsw (the task blocked) and
 * prev->nivcsw (it was preempted) for every switch away from the task, and
 * that same switch calls context_switch() -> prepare_task_switch() ->
 * perf_event_task_sched_out(), which counts PERF_COUNT_SW_CONTEXT_SWITCHES
 * while the task's events are still scheduled in. getrusage(RUSAGE_THREAD)
 * reports the two as ru_nvcsw and ru_nivcsw. So over any interval the event
 * counts exactly ru_nvcsw + ru_nivcsw of the thread. Each reading of the
 * rusage is taken between two reads of the event that agree, so no switch
 * falls between the two counters. Each 5 ms sleep blocks: at least one
 * voluntary switch each (do_nanosleep() calls schedule() in
 * TASK_INTERRUPTIBLE while the timer is pending).
 *
 * The scheduler records the switch with kernel registers: counting needs
 * exclude_kernel=0, which the paranoid level may forbid.
 */
static const char *kernel_counting(void)
{
	static char why[96];

	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "counting context switches needs "
		 "exclude_kernel=0, which paranoid %d forbids here", pa_paranoid());
	return why;
}

/* The thread's switches so far (getrusage: voluntary + involuntary). */
static uint64_t switches(struct rusage *ru)
{
	ASSERT_OK(getrusage(RUSAGE_THREAD, ru));
	return (uint64_t)ru->ru_nvcsw + (uint64_t)ru->ru_nivcsw;
}

/*
 * The event's count and the thread's switch counts at one instant: a
 * reading of the rusage between two reads of the event that agree. Two
 * that differ mean the counter moved, which only a switch away from the
 * task may do: one that the rusage taken before the first read and after
 * the second also shows is run again; one it does not show (no switch at
 * all over both reads) is the counter moving by itself, a FAIL at once.
 * Only 1000 pairs in a row, each with a switch, are the environment's.
 */
static void snapshot(int fd, uint64_t *count, uint64_t *nv, uint64_t *niv)
{
	struct rusage r0, ru, r2;
	uint64_t a, b, s0, s2;

	for (int i = 0; i < 1000; i++) {
		s0 = switches(&r0);
		pa_read_u64(fd, &a, 1);
		ASSERT_OK(getrusage(RUSAGE_THREAD, &ru));
		pa_read_u64(fd, &b, 1);
		s2 = switches(&r2);
		if (a == b) {
			*count = a;
			*nv = (uint64_t)ru.ru_nvcsw;
			*niv = (uint64_t)ru.ru_nivcsw;
			return;
		}
		if (s0 == s2) {
			pa_fail("the counter moved from %llu to %llu between two reads while the thread was not switched out (rusage %llu voluntary + %llu involuntary before and after)",
				(unsigned long long)a, (unsigned long long)b,
				(unsigned long long)r0.ru_nvcsw, (unsigned long long)r0.ru_nivcsw);
			pa_abort();
		}
	}
	pa_skip("the task was switched out between two reads 1000 times in a row");
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CONTEXT_SWITCHES counts every switch away from "
		     "the task: over 20 blocking sleeps, each followed by 2 ms of CPU work, it grows by exactly the "
		     "thread's voluntary + involuntary switches (getrusage "
		     "ru_nvcsw + ru_nivcsw), of which at least 20 are voluntary",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CONTEXT_SWITCHES; getrusage(2) "
	       "ru_nvcsw, ru_nivcsw; kernel/sched/core.c __schedule() "
	       "(++*switch_count, context_switch()); include/linux/perf_event.h "
	       "perf_event_task_sched_out()",
	.alone = true,
	.covers = "sw.CONTEXT_SWITCHES attr.config",
	.probe = kernel_counting,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES);
	uint64_t c0, c1, nv0, nv1, niv0, niv1;
	int fd;

	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	snapshot(fd, &c0, &nv0, &niv0);
	for (int i = 0; i < SLEEPS; i++) {
		struct timespec nap = { 0, 5000000 };

		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR)
			;
		pa_work_cpu_ms(2);	/* preemptible: involuntary switches */
	}
	snapshot(fd, &c1, &nv1, &niv1);
	close(fd);

	pa_diag("%llu switches counted; rusage: %llu voluntary, %llu involuntary",
		(unsigned long long)(c1 - c0), (unsigned long long)(nv1 - nv0),
		(unsigned long long)(niv1 - niv0));
	EXPECT_EQ(c1 - c0, (nv1 - nv0) + (niv1 - niv0));
	/* a sleep whose timer expired before the task slept (a vCPU held up
	 * by its host) does not block: most, not all, must have */
	EXPECT_GE(nv1 - nv0, SLEEPS / 2);
}
