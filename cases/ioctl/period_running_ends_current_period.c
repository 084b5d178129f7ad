#include "perfabi.h"

#include <sys/resource.h>

/*
 * The due overflow PERIOD leaves (period_left 0) is taken by the next
 * event only while the task stays on the CPU: a software event scheduled
 * back in starts a new period (kernel/events/core.c perf_swevent_add() ->
 * perf_swevent_set_period()), so after a context switch in between the
 * first sample comes one new period later (seen: 2 runs in 300 under CPU
 * load; always with a 2 ms sleep there). A try that was switched out
 * between PERIOD and the fault (this thread's voluntary + involuntary
 * switches, getrusage(RUSAGE_THREAD)) says nothing and is run again; one
 * that was not decides, with exact values. Only preemption (and a fault
 * that blocks in reclaim) is the environment's: PERIOD blocking (a
 * voluntary switch across the ioctl) in every try is a FAIL, with nothing
 * to wait for on a correct kernel (its context mutex is this task's).
 */
#define TRIES	20

struct try {
	uint64_t head_before, head_after, count;
	int samples;
	long sw0, sw1;
	long v0, vm, v1;	/* voluntary: before PERIOD, after it, after the fault */
};

static void one_try(struct try *t)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t warm, period = 4;
	struct pa_ring ring;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 1);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched. Samples are counted from
	 * data_head, on the control page: the data pages are read only once
	 * the event is disabled. */
	pa_touch_pages(1);
	ASSERT_GE(pa_thread_switches(), 0);
	ASSERT_GE(pa_thread_vswitches(), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&ring), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(10);		/* 10 of the 1000 */
	t->head_before = pa_ring_head(&ring);
	t->sw0 = pa_thread_switches();
	t->v0 = pa_thread_vswitches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	t->vm = pa_thread_vswitches();
	pa_touch_pages(1);
	t->head_after = pa_ring_head(&ring);
	t->sw1 = pa_thread_switches();
	t->v1 = pa_thread_vswitches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	t->count = pa_read_one(fd);
	t->samples = pa_ring_count(&ring, PERF_RECORD_SAMPLE);
	pa_ring_unmap(&ring);
	close(fd);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a running software sampling event takes effect immediately: the period in progress is cut short and the very next event overflows, where the old period had most of its events still to run (before Linux 3.14 the old period ran to its end first)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD (the new period takes effect immediately since Linux 3.14, 3.7 on ARM); bad7192b842c \"perf: Fix PERF_EVENT_IOC_PERIOD to force-reset the period\": kernel/events/core.c __perf_event_period() stops the event, sets period_left to 0 and restarts it",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
) {
	uint64_t rec;
	struct try t;
	int i, in_ioctl = 0, in_fault = 0;

	{
		struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

		attr.sample_type = PERF_SAMPLE_IP;
		rec = pa_sample_size(&attr, NULL);
	}
	for (i = 0; i < TRIES; i++) {
		one_try(&t);
		EXPECT_EQ(t.head_before, 0);	/* 10 of 1000: no sample */
		if (t.sw0 == t.sw1)
			break;
		pa_diag("try %d: switched out %ld time(s) between PERIOD and the fault (%ld blocked in PERIOD, %ld in the fault; %llu sample bytes, count %llu): again",
			i + 1, t.sw1 - t.sw0, t.vm - t.v0, t.v1 - t.vm,
			(unsigned long long)t.head_after, (unsigned long long)t.count);
		in_ioctl += t.vm > t.v0;
		in_fault += t.v1 > t.vm;
	}
	/* preemption (an involuntary switch) is the busy CPU's; a fault may
	 * block in reclaim; PERIOD itself has nothing to wait for */
	if (i == TRIES && in_ioctl == TRIES) {
		pa_fail("PERF_EVENT_IOC_PERIOD blocked (a voluntary context switch) in every one of %d tries: it cannot take effect immediately",
			TRIES);
		pa_abort();
	}
	if (i == TRIES)
		pa_skip("every one of %d tries was switched out between PERIOD and the next page fault (%d of them blocked in PERIOD, %d in the page fault, a fault that may wait on memory reclaim; the rest were preempted: a CPU too busy to run a few microseconds uninterrupted)",
			TRIES, in_ioctl, in_fault);
	EXPECT_EQ(t.head_after, rec);	/* one sample, at once */
	EXPECT_EQ(t.count, 11);
	EXPECT_EQ(t.samples, 1);
}
