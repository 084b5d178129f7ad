#include "perfabi.h"

#include <sys/ioctl.h>

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
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	uint64_t period = NEW, rec;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0;

	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_ADDR;
	rec = pa_sample_size(&a, NULL);
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	writes(1);		/* disabled: not counted */
	ASSERT_EQ(pa_read_one(fd), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	writes(BEFORE);
	EXPECT_EQ(pa_ring_head(&r), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	writes(1);			/* write 1 after the ioctl */
	EXPECT_EQ(pa_ring_head(&r), 1 * rec);
	writes(OLD - 2);		/* writes 2 .. OLD-1 */
	EXPECT_EQ(pa_ring_head(&r), 1 * rec);
	writes(1);			/* write OLD */
	EXPECT_EQ(pa_ring_head(&r), 2 * rec);
	writes(NEW - 1);
	EXPECT_EQ(pa_ring_head(&r), 2 * rec);
	writes(1);			/* write OLD + NEW */
	EXPECT_EQ(pa_ring_head(&r), 3 * rec);
	writes(NEW);			/* write OLD + 2 NEW */
	EXPECT_EQ(pa_ring_head(&r), 4 * rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	writes(1);			/* disabled again: not counted */

	EXPECT_EQ(pa_read_one(fd), BEFORE + OLD + 2 * NEW);
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
		n++;
	}
	EXPECT_EQ(n, 4);
	pa_ring_unmap(&r);
	close(fd);
}
