#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PERIOD on a running uprobe PMU sampler. The uprobe event
 * counts through perf_swevent_event() as a software event does, so the
 * ioctl has the same effect as on ioctl/period_running_sw_old_period_once
 * and ioctl/period_ioctl_running_watchpoint: __perf_event_period()
 * sets period_left to 0, so the first call after it overflows at once;
 * perf_swevent_set_period() then takes the period from hw.last_period,
 * still the old one, once; from then on every NEW-th call overflows.
 *
 * The uprobe event is scheduled out and in with its task (perf_trace_del()
 * and perf_trace_add()); a sched-in between the ioctl and the first call
 * after it re-arms period_left from the new period (perf_trace_add() ->
 * perf_swevent_set_period() with period_left 0), which takes the overflow
 * at once and the old period with it. Such a try (this thread's switches,
 * getrusage(RUSAGE_THREAD)) says nothing and is run again. Later switches
 * change nothing: period_left is then negative, which a sched-in keeps.
 */
#define OLD	8
#define NEW	3
#define TRIES	20

__attribute__((noinline)) void pa_upclk_period_fn(void);
__attribute__((noinline)) void pa_upclk_period_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		pa_upclk_period_fn();
}

struct try {
	uint64_t head[7], count;	/* data_head after each step */
	int samples;
	long sw0, sw1;
};

static void one_try(const struct perf_event_attr *tmpl, struct try *t)
{
	struct perf_event_attr attr = *tmpl;
	uint64_t period = NEW;
	struct pa_ring ring;
	int fd;

	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&ring, fd, 1);
	pa_ring_prefault(&ring);
	calls(1);		/* disabled: not counted */
	ASSERT_GE(pa_thread_switches(), 0);
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&ring), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	calls(5);			/* 5 of OLD */
	t->head[0] = pa_ring_head(&ring);
	t->sw0 = pa_thread_switches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	calls(1);			/* call 1 after the ioctl */
	t->head[1] = pa_ring_head(&ring);
	t->sw1 = pa_thread_switches();
	calls(OLD - 2);			/* calls 2 .. OLD-1 */
	t->head[2] = pa_ring_head(&ring);
	calls(1);			/* call OLD */
	t->head[3] = pa_ring_head(&ring);
	calls(NEW - 1);
	t->head[4] = pa_ring_head(&ring);
	calls(1);			/* call OLD + NEW */
	t->head[5] = pa_ring_head(&ring);
	calls(NEW);			/* call OLD + 2 NEW */
	t->head[6] = pa_ring_head(&ring);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	calls(1);			/* disabled again: not counted */
	t->count = pa_read_one(fd);
	t->samples = pa_ring_count(&ring, PERF_RECORD_SAMPLE);
	pa_ring_unmap(&ring);
	close(fd);
}

PERFABI_CASE(
	.assertion = "after PERF_EVENT_IOC_PERIOD on a running uprobe PMU sampling event (sample_period 8 -> 3, 5 calls into the old period), the first call of the probed function overflows at once, the next overflow comes at the 8th call after the ioctl (the old period, once), and from then on every 3rd call: data_head steps by one record exactly there, and the count is every call made while enabled (19)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period() (period_left = 0), perf_swevent_event(), perf_swevent_set_period() (hw.last_period); kernel/trace/trace_event_perf.c perf_trace_add(); the same sequence as ioctl/period_running_sw_old_period_once",
	.alone = true,
	.covers = "ioctl.PERIOD attr.sample_period record.SAMPLE type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_upclk_period_fn");
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	uint64_t rec;
	struct try t;
	int i;

	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.sample_period = OLD;
	attr.sample_type = PERF_SAMPLE_IP;	/* no PERIOD: see the comment */
	rec = pa_sample_size(&attr, NULL);
	for (i = 0; i < TRIES; i++) {
		one_try(&attr, &t);
		EXPECT_EQ(t.head[0], 0);	/* 5 of OLD: no sample */
		if (t.sw0 == t.sw1)
			break;
		pa_diag("try %d: switched out %ld time(s) between PERIOD and the call after it: again",
			i + 1, t.sw1 - t.sw0);
	}
	if (i == TRIES)
		pa_skip("every one of %d tries was switched out between PERIOD and the next call (a CPU too busy to run a few microseconds uninterrupted)", TRIES);
	EXPECT_EQ(t.head[1], 1 * rec);		/* at once */
	EXPECT_EQ(t.head[2], 1 * rec);
	EXPECT_EQ(t.head[3], 2 * rec);		/* the old period, once */
	EXPECT_EQ(t.head[4], 2 * rec);
	EXPECT_EQ(t.head[5], 3 * rec);		/* then the new one */
	EXPECT_EQ(t.head[6], 4 * rec);
	EXPECT_EQ(t.count, 5 + OLD + 2 * NEW);
	EXPECT_EQ(t.samples, 4);
}
