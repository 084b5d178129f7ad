#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/resource.h>

#define OLD	8
#define NEW	2
#define BEFORE	5	/* writes of the old period before the ioctl */

static volatile uint64_t target __attribute__((aligned(8)));

static void writes(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

/*
 * A breakpoint event is sampled through the software-event period logic
 * (perf_bp_event() -> perf_swevent_event()). PERF_EVENT_IOC_PERIOD on the
 * enabled event of the running task stops it (hw_breakpoint_stop()), sets
 * period_left to 0 and starts it again (hw_breakpoint_start()): the next
 * write overflows at once, the next after that OLD writes after the ioctl
 * (perf_swevent_set_period() still uses hw.last_period, the old period,
 * once), then every NEW writes. PERF_SAMPLE_PERIOD is left out: with it a
 * software-style event samples every hit (cases/sample/period_sw_every_event).
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on an enabled, running write-watchpoint sampling event takes effect at once: of the writes after the ioctl the 1st overflows, then the OLD-th (the old period, once, as for software events), then every NEW-th; every sample's PERF_SAMPLE_ADDR is bp_addr and the count is every write",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD (takes effect immediately since Linux 3.14); kernel/events/core.c __perf_event_period() (pmu->stop, period_left = 0, pmu->start: hw_breakpoint_stop()/hw_breakpoint_start()) and perf_swevent_set_period() (the next period from hw.last_period)",
	.covers = "ioctl.PERIOD type.BREAKPOINT attr.sample_period sample.ADDR record.SAMPLE",
	.pmu = "breakpoint",
	.min_kernel = "3.14",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	uint64_t period = NEW, rec, head[7], count = 0;
	int fd, n = 0, throttled = 0, tries, blocked = 0;
	struct pa_sample s;
	struct pa_ring r;
	long sw, vsw;

	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_ADDR;
	rec = pa_sample_size(&a, NULL);
	/*
	 * The window from ENABLE to DISABLE must run without a context
	 * switch: scheduled in again, a breakpoint re-arms its period from
	 * the new one (hw_breakpoint_add() -> perf_swevent_set_period()), and
	 * the first write after the ioctl no longer overflows. A slow guest
	 * also lowers perf_event_max_sample_rate on its own, and a throttled
	 * event writes PERF_RECORD_THROTTLE instead of samples; a throttle
	 * the rate cannot explain for 4 overflows is a FAIL
	 * (pa_throttle_check()). Either way the window is run again, at most
	 * ten times.
	 */
	for (tries = 0; tries < 10; tries++) {
		fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
		pa_ring_map(&r, fd, 1);
		pa_ring_prefault(&r);
		writes(1);		/* disabled: not counted */
		ASSERT_EQ(pa_read_one(fd), 0);

		sw = pa_thread_switches();
		vsw = pa_thread_vswitches();
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		writes(BEFORE);
		head[0] = pa_ring_head(&r);
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
		writes(1);		/* write 1 after the ioctl */
		head[1] = pa_ring_head(&r);
		writes(OLD - 2);	/* writes 2 .. OLD-1 */
		head[2] = pa_ring_head(&r);
		writes(1);		/* write OLD */
		head[3] = pa_ring_head(&r);
		writes(NEW - 1);
		head[4] = pa_ring_head(&r);
		writes(1);		/* write OLD + NEW */
		head[5] = pa_ring_head(&r);
		writes(NEW);		/* write OLD + 2 NEW */
		head[6] = pa_ring_head(&r);
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		sw = pa_thread_switches() - sw;
		vsw = pa_thread_vswitches() - vsw;
		writes(1);		/* disabled again: not counted */

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
			if (!pa_sample_parse(&a, h, &s))
				pa_abort();
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
			n++;
		}
		pa_ring_unmap(&r);
		close(fd);
		if (throttled)		/* 4 overflows: the rate must explain it */
			(void)pa_throttle_check(4);
		if (!sw && !throttled)
			break;
		pa_diag("try %d: %ld context switch(es) (%ld voluntary), %d throttle record(s): again",
			tries + 1, sw, vsw, throttled);
		blocked += vsw > 0;
	}
	/* Preemption (an involuntary switch) is the busy CPU's. The window
	 * makes no fault (the ring, the code and target are touched first)
	 * and its ioctls have nothing to wait for: blocking (a voluntary
	 * switch) in every try is the kernel's. */
	if (blocked == 10) {
		pa_fail("the window from ENABLE to DISABLE blocked (a voluntary context switch) in every one of 10 tries");
		pa_abort();
	}
	if (tries == 10)
		pa_skip("every one of 10 tries was switched out or throttled "
			"(perf_event_max_sample_rate %ld)",
			pa_sysctl_long("kernel/perf_event_max_sample_rate"));
	EXPECT_EQ(head[0], 0);
	EXPECT_EQ(head[1], 1 * rec);
	EXPECT_EQ(head[2], 1 * rec);
	EXPECT_EQ(head[3], 2 * rec);
	EXPECT_EQ(head[4], 2 * rec);
	EXPECT_EQ(head[5], 3 * rec);
	EXPECT_EQ(head[6], 4 * rec);
	EXPECT_EQ(count, BEFORE + OLD + 2 * NEW);
	EXPECT_EQ(n, 4);
}
