#include "perfabi.h"

#include <sys/resource.h>

#define OLD	16
#define NEW	4

/*
 * A software event scheduled back in starts a new period
 * (perf_swevent_add() -> perf_swevent_set_period() from hw.sample_period),
 * which takes the due overflow PERIOD left and the old period with it: a
 * try switched out between PERIOD and the first fault after it (this
 * thread's switches, getrusage(RUSAGE_THREAD)) says nothing and is run
 * again, as in period_running_ends_current_period. A switch later on
 * changes nothing here: the old period is then already under way. Only
 * preemption (and a fault that blocks in reclaim) is the environment's:
 * PERIOD blocking (a voluntary switch across the ioctl) in every try is a
 * FAIL, with nothing to wait for on a correct kernel.
 */
#define TRIES	20

struct try {
	uint64_t head[7], count;	/* data_head after each step */
	int samples;
	long sw0, sw1;
	long v0, vm, v1;	/* voluntary: before PERIOD, after it, after the fault */
};

static void one_try(struct try *t)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, OLD);
	uint64_t warm, period = NEW;
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
	pa_touch_pages(5);			/* 5 of OLD */
	t->head[0] = pa_ring_head(&ring);
	t->sw0 = pa_thread_switches();
	t->v0 = pa_thread_vswitches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	t->vm = pa_thread_vswitches();
	pa_touch_pages(1);			/* event 1 after the ioctl */
	t->head[1] = pa_ring_head(&ring);
	t->sw1 = pa_thread_switches();
	t->v1 = pa_thread_vswitches();
	pa_touch_pages(OLD - 2);		/* events 2 .. OLD-1 */
	t->head[2] = pa_ring_head(&ring);
	pa_touch_pages(1);			/* event OLD */
	t->head[3] = pa_ring_head(&ring);
	pa_touch_pages(NEW - 1);
	t->head[4] = pa_ring_head(&ring);
	pa_touch_pages(1);			/* event OLD + NEW */
	t->head[5] = pa_ring_head(&ring);
	pa_touch_pages(NEW);			/* event OLD + 2 NEW */
	t->head[6] = pa_ring_head(&ring);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	t->count = pa_read_one(fd);
	t->samples = pa_ring_count(&ring, PERF_RECORD_SAMPLE);
	pa_ring_unmap(&ring);
	close(fd);
}

PERFABI_CASE(
	.assertion = "Finding: after PERF_EVENT_IOC_PERIOD on a running software sampling event, the first event overflows at once, the next overflow comes at the P-th event after the ioctl, P being the old period (as if the old period restarted at the ioctl), and only from then on every new period",
	.ref = "kernel/events/core.c __perf_event_period() sets period_left to 0; perf_swevent_set_period() computes the next period from hw.last_period, which still holds the old period once; perf_event_open(2) PERF_EVENT_IOC_PERIOD says only that the new period takes effect immediately",
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
) {	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, OLD);
	uint64_t rec;
	struct try t;
	int i, in_ioctl = 0, in_fault = 0;

	attr.sample_type = PERF_SAMPLE_IP;
	rec = pa_sample_size(&attr, NULL);
	for (i = 0; i < TRIES; i++) {
		one_try(&t);
		EXPECT_EQ(t.head[0], 0);	/* 5 of OLD: no sample */
		if (t.sw0 == t.sw1)
			break;
		pa_diag("try %d: switched out %ld time(s) between PERIOD and the fault after it (%ld blocked in PERIOD, %ld in the fault): again",
			i + 1, t.sw1 - t.sw0, t.vm - t.v0, t.v1 - t.vm);
		in_ioctl += t.vm > t.v0;
		in_fault += t.v1 > t.vm;
	}
	/* preemption (an involuntary switch) is the busy CPU's; a fault may
	 * block in reclaim; PERIOD itself has nothing to wait for */
	if (i == TRIES && in_ioctl == TRIES) {
		pa_fail("PERF_EVENT_IOC_PERIOD blocked (a voluntary context switch) in every one of %d tries: the new period cannot take effect at the next event",
			TRIES);
		pa_abort();
	}
	if (i == TRIES)
		pa_skip("every one of %d tries was switched out between PERIOD and the next page fault (%d of them blocked in PERIOD, %d in the page fault, a fault that may wait on memory reclaim; the rest were preempted: a CPU too busy to run a few microseconds uninterrupted)",
			TRIES, in_ioctl, in_fault);
	EXPECT_EQ(t.head[1], 1 * rec);		/* at once */
	EXPECT_EQ(t.head[2], 1 * rec);
	EXPECT_EQ(t.head[3], 2 * rec);		/* the old period, once */
	EXPECT_EQ(t.head[4], 2 * rec);
	EXPECT_EQ(t.head[5], 3 * rec);		/* then the new one */
	EXPECT_EQ(t.head[6], 4 * rec);
	EXPECT_EQ(t.count, 5 + OLD + 2 * NEW);
	EXPECT_EQ(t.samples, 4);
}
