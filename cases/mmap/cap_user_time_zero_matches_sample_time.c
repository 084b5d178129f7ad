#include "perfabi.h"

#include <sys/ioctl.h>

#if defined(__x86_64__) || defined(__i386__)
static uint64_t cycles(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}
#define HAVE_CYCLES 1
#else
#define HAVE_CYCLES 0
static uint64_t cycles(void) { return 0; }
#endif

struct conv {
	uint64_t zero, cyc, mask;
	uint32_t mult;
	uint16_t shift;
	bool user_time_zero, user_time_short;
};

static void read_conv(volatile struct perf_event_mmap_page *pg, struct conv *c)
{
	uint32_t seq;

	do {
		seq = pg->lock;
		__sync_synchronize();
		c->user_time_zero = pg->cap_user_time_zero;
		c->user_time_short = pg->cap_user_time_short;
		c->zero = pg->time_zero;
		c->mult = pg->time_mult;
		c->shift = pg->time_shift;
		c->cyc = pg->time_cycles;
		c->mask = pg->time_mask;
		__sync_synchronize();
	} while (pg->lock != seq || (seq & 1));
}

/* include/uapi/linux/perf_event.h: "If cap_usr_time_zero, the hardware
 * clock (e.g. TSC) can be calculated from sample timestamps" and back:
 *   quot = cyc >> time_shift; rem = cyc & ((1 << time_shift) - 1);
 *   timestamp = time_zero + quot * time_mult + ((rem * time_mult) >> time_shift);
 * with cap_usr_time_short first cyc = time_cycles + ((cyc - time_cycles) & time_mask). */
static uint64_t cyc_to_time(const struct conv *c, uint64_t cyc)
{
	uint64_t quot, rem;

	if (c->user_time_short)
		cyc = c->cyc + ((cyc - c->cyc) & c->mask);
	quot = cyc >> c->shift;
	rem = cyc & (((uint64_t)1 << c->shift) - 1);
	return c->zero + quot * c->mult + ((rem * c->mult) >> c->shift);
}

PERFABI_CASE(
	.assertion = "where the control page has cap_user_time_zero, a cycle-counter reading converted with time_zero/time_mult/time_shift (and time_cycles/time_mask where cap_user_time_short) is on the clock of PERF_SAMPLE_TIME: readings taken just before and just after one sampled page fault bracket exactly one sample's time, that fault's",
	.ref = "include/uapi/linux/perf_event.h struct perf_event_mmap_page: time_zero (\"If cap_usr_time_zero, the hardware clock (e.g. TSC) can be calculated from sample timestamps\", the quot/rem formula), cap_user_time_short; perf_event_open(2) MMAP layout cap_usr_time, time_shift/time_mult/time_offset; arch/x86/events/core.c arch_perf_update_userpage()",
	.covers = "mmap.capabilities sample.TIME",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	uint64_t t0, t1, c0, c1;
	struct pa_sample s;
	struct pa_ring r;
	struct conv c;
	int fd, n = 0;

	if (!HAVE_CYCLES)
		pa_skip("no cycle-counter reader for this architecture in this case");
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 2);
	pa_ring_prefault(&r);
	read_conv(r.page, &c);
	if (!r.page->cap_user_time || !c.user_time_zero)
		pa_skip("the kernel does not set cap_user_time/cap_user_time_zero here (no stable TSC sched_clock)");
	ASSERT_NE(c.mult, 0u);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	c0 = cycles();
	pa_touch_pages(1);
	c1 = cycles();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	read_conv(r.page, &c);
	t0 = cyc_to_time(&c, c0);
	t1 = cyc_to_time(&c, c1);
	EXPECT_LE(t0, t1);
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		ASSERT_TRUE(pa_sample_parse(&attr, h, &s));
		if (s.time < t0 || s.time > t1)
			continue;		/* the ENABLE/DISABLE ioctls' own faults */
		n++;
	}
	/* Exactly one: pa_touch_pages(1) ran once before ENABLE, so its code
	 * and stack are mapped and the one store to the fresh page is the
	 * only user-mode fault between the readings (exclude_kernel: the
	 * syscalls' own faults are not counted). Its sample's time is
	 * perf_event_clock() at the fault (__perf_event_header__init_id(),
	 * local_clock()), which the readings bracket. A conversion that is
	 * off moves that sample out (0); a fault sampled twice shows 2. */
	EXPECT_EQ(n, 1);
}
