#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#define NEV 4

/*
 * clockid is read only when use_clockid is set. Four page-fault samplers,
 * each enabled alone for one fault of its own:
 *	0: use_clockid 0, clockid CLOCK_REALTIME (0: also the zeroed default)
 *	1: use_clockid 0, clockid CLOCK_TAI
 *	2: use_clockid 0, clockid 12345 (no clock at all: still accepted)
 *	3: use_clockid 1, clockid CLOCK_REALTIME
 * 3 is on CLOCK_REALTIME: inside a bracket of clock_gettime(CLOCK_REALTIME)
 * around the fault. 0..2 are on perf's default clock (local_clock(), which
 * counts from about boot): below the midpoint between a CLOCK_BOOTTIME and
 * a CLOCK_REALTIME reading, decades away from the wall clock, and within
 * the whole run's width (plus 1 s of slack for a coarse clock) of each
 * other. Where the wall clock was never set (REALTIME close to BOOTTIME)
 * the clocks cannot be told apart: SKIP.
 */
PERFABI_CASE(
	.assertion = "without use_clockid, clockid is ignored: with clockid CLOCK_REALTIME, CLOCK_TAI or 12345 (no clock; accepted) the sample time of a page fault is on perf's default clock (local_clock, counting from boot), far below a CLOCK_REALTIME bracket of the fault; the same event with use_clockid = 1 and CLOCK_REALTIME has its sample time inside that bracket",
	.ref = "perf_event_open(2), clockid: \"If use_clockid is set, then this field selects which internal Linux timer to use\"; kernel/events/core.c perf_event_open(): if (attr.use_clockid) perf_event_set_clock(), else perf_event_alloc() keeps event->clock = local_clock",
	.covers = "attr.clockid attr.use_clockid sample.TIME",
	.min_kernel = "4.1",	/* use_clockid */
	.probe = pa_probe_self_perf,
) {
	static const int use[NEV] = { 0, 0, 0, 1 };
	static const int clk[NEV] = { CLOCK_REALTIME, CLOCK_TAI, 12345, CLOCK_REALTIME };
	struct perf_event_attr attr[NEV];
	struct pa_ring r[NEV];
	uint64_t t[NEV], ra, r0, r1, rz, b1, mid, slack;
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_sample s;
	int fd[NEV], n, i;
	char *p;

	for (i = 0; i < NEV; i++) {
		attr[i] = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
		attr[i].disabled = 1;
		attr[i].sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR;
		attr[i].use_clockid = use[i];
		attr[i].clockid = clk[i];
		fd[i] = ASSERT_OPEN(&attr[i], 0, -1, -1, 0);
		pa_ring_map(&r[i], fd[i], 4);
		pa_ring_prefault(&r[i]);
	}
	p = mmap(NULL, (size_t)psz * (NEV + 1), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	/* warm up the vDSO and the store */
	r0 = pa_clock_ns(CLOCK_REALTIME);
	b1 = pa_clock_ns(CLOCK_BOOTTIME);
	p[NEV * psz] = 1;

	/*
	 * One event at a time, each for its own fault: software events that
	 * overflow on the same fault share one perf_sample_data, and since
	 * 6.3 the second one reuses the first one's time (and id).
	 */
	ra = pa_clock_ns(CLOCK_REALTIME);
	for (i = 0; i < NEV; i++) {
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
		r0 = pa_clock_ns(CLOCK_REALTIME);	/* kept: event 3's */
		p[i * psz] = 1;
		r1 = pa_clock_ns(CLOCK_REALTIME);
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0));
	}
	rz = pa_clock_ns(CLOCK_REALTIME);
	b1 = pa_clock_ns(CLOCK_BOOTTIME);

	if (r0 < b1 + 2 * 86400ULL * 1000000000ULL)
		pa_skip("CLOCK_REALTIME is within 2 days of CLOCK_BOOTTIME (no wall-clock time set): perf's default clock cannot be told from it");

	for (i = 0; i < NEV; i++) {
		n = 0;
		while (pa_ring_head(&r[i]) != r[i].tail) {
			pa_ring_sample(&r[i], &attr[i], &s);
			if (s.addr != (uint64_t)(uintptr_t)(p + i * psz))
				continue;
			t[i] = s.time;
			n++;
		}
		ASSERT_EQ(n, 1);	/* its fault, one sample of it */
	}
	pa_diag("REALTIME %llu..%llu, BOOTTIME %llu; times %llu %llu %llu %llu",
		(unsigned long long)r0, (unsigned long long)r1,
		(unsigned long long)b1, (unsigned long long)t[0],
		(unsigned long long)t[1], (unsigned long long)t[2],
		(unsigned long long)t[3]);

	/* use_clockid = 1: on CLOCK_REALTIME */
	EXPECT_GE(t[3], r0);
	EXPECT_LE(t[3], r1);

	/* use_clockid = 0: clockid ignored, the default clock */
	mid = b1 + (r0 - b1) / 2;
	slack = rz - ra + 1000000000ULL;
	for (i = 0; i < 3; i++)
		EXPECT_LT(t[i], mid);
	EXPECT_LE(t[1] > t[0] ? t[1] - t[0] : t[0] - t[1], slack);
	EXPECT_LE(t[2] > t[0] ? t[2] - t[0] : t[0] - t[2], slack);

	for (i = 0; i < NEV; i++) {
		pa_ring_unmap(&r[i]);
		close(fd[i]);
	}
}
