#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define OLD	8
#define NEW	3
#define BEFORE	5	/* calls of the old period before the ioctl */
#define TRIES	10

static void calls(int n)
{
	for (int i = 0; i < n; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);	/* another syscall: not this tracepoint */
	}
}

/*
 * A tracepoint is sampled through the software-event period logic
 * (perf_tp_event() -> perf_swevent_event()). PERF_EVENT_IOC_PERIOD on the
 * enabled event of the running task stops it (perf_swevent_stop()), sets
 * period_left to 0 and starts it again (perf_swevent_start()): the next
 * hit overflows at once, the next after that OLD hits after the ioctl
 * (perf_swevent_set_period() takes hw.last_period, still the old period,
 * once), then every NEW hits: the sequence of the software events
 * (ioctl/period_running_sw_old_period_once) and breakpoints
 * (ioctl/period_ioctl_running_watchpoint).
 *
 * Scheduled in again between the ioctl and the first call after it, the
 * event re-arms its period from the new one (perf_trace_add() ->
 * perf_swevent_set_period() with period_left 0), and that call no longer
 * overflows: a try with a context switch in its window says nothing and is
 * run again (a switch later on changes nothing: the period under way is
 * kept). A throttle the rate cannot explain for 4 overflows is a FAIL
 * (pa_throttle_check()), else the try is run again too.
 *
 * PERF_SAMPLE_PERIOD is left out: with it a tracepoint samples every hit.
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) sees every call.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on an enabled, running tracepoint sampling event takes effect at once: of the getppid() calls after the ioctl the 1st overflows, then the OLD-th (the old period, once, as for software events), then every NEW-th; the count is every call",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD: \"Since Linux 3.7 (on ARM) and Linux 3.14 (all other architectures), the new period takes effect immediately\"; kernel/events/core.c __perf_event_period() (pmu->stop, period_left = 0, pmu->start: perf_swevent_stop()/perf_swevent_start()), perf_tp_event() -> perf_swevent_event() and perf_swevent_set_period() (the next period from hw.last_period)",
	.covers = "ioctl.PERIOD type.TRACEPOINT attr.sample_period record.SAMPLE",
	.min_kernel = "3.14",
	.tracefs = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	const struct perf_event_header *h;
	uint64_t period = NEW, rec, head[7], count = 0;
	int fd, n = 0, throttled = 0, tries;
	struct pa_ring r;
	long sw;

	a.exclude_kernel = 1;
	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_IP;
	rec = pa_sample_size(&a, NULL);
	for (tries = 0; tries < TRIES; tries++) {
		fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
		pa_ring_map(&r, fd, 1);
		calls(1);		/* disabled: not counted */
		ASSERT_EQ(pa_read_one(fd), 0);

		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		calls(BEFORE);
		head[0] = pa_ring_head(&r);
		sw = pa_thread_switches();
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
		calls(1);		/* call 1 after the ioctl */
		sw = pa_thread_switches() - sw;
		head[1] = pa_ring_head(&r);
		calls(OLD - 2);		/* calls 2 .. OLD-1 */
		head[2] = pa_ring_head(&r);
		calls(1);		/* call OLD */
		head[3] = pa_ring_head(&r);
		calls(NEW - 1);
		head[4] = pa_ring_head(&r);
		calls(1);		/* call OLD + NEW */
		head[5] = pa_ring_head(&r);
		calls(NEW);		/* call OLD + 2 NEW */
		head[6] = pa_ring_head(&r);
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		calls(1);		/* disabled again: not counted */

		count = pa_read_one(fd);
		n = throttled = 0;
		while ((h = pa_ring_next(&r))) {
			if (h->type == PERF_RECORD_THROTTLE ||
			    h->type == PERF_RECORD_UNTHROTTLE) {
				throttled++;
				continue;
			}
			if (h->type != PERF_RECORD_SAMPLE) {
				pa_fail("unexpected record type %u", h->type);
				continue;
			}
			n++;
		}
		pa_ring_unmap(&r);
		close(fd);
		if (throttled)		/* 4 overflows: the rate must explain it */
			(void)pa_throttle_check(4);
		if (!sw && !throttled)
			break;
		pa_diag("try %d: %ld context switch(es) between PERIOD and the call after it, %d throttle record(s): again",
			tries + 1, sw, throttled);
	}
	if (tries == TRIES)
		pa_skip("every one of %d tries was switched out between PERIOD and the next call, or throttled "
			"(perf_event_max_sample_rate %ld)", TRIES,
			pa_sysctl_long("kernel/perf_event_max_sample_rate"));
	EXPECT_EQ(head[0], 0);			/* BEFORE of OLD: no sample */
	EXPECT_EQ(head[1], 1 * rec);		/* at once */
	EXPECT_EQ(head[2], 1 * rec);
	EXPECT_EQ(head[3], 2 * rec);		/* the old period, once */
	EXPECT_EQ(head[4], 2 * rec);
	EXPECT_EQ(head[5], 3 * rec);		/* then the new one */
	EXPECT_EQ(head[6], 4 * rec);
	EXPECT_EQ(count, BEFORE + OLD + 2 * NEW);
	EXPECT_EQ(n, 4);
}
