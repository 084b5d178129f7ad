#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

/*
 * use_clockid makes PERF_SAMPLE_TIME (and sample_id time) use the clock in
 * attr.clockid. With CLOCK_MONOTONIC_RAW, the time of the sample of a page fault
 * (found by PERF_SAMPLE_ADDR) lies between clock_gettime(CLOCK_MONOTONIC_RAW) read before and after the
 * fault. One write to a fresh page is one fault: exactly one sample has
 * that address.
 */
PERFABI_CASE(
	.assertion = "attr.use_clockid with clockid CLOCK_MONOTONIC_RAW: the one sample of a page fault (exactly one for one write to a fresh page) has a time between CLOCK_MONOTONIC_RAW readings taken just before and just after it",
	.ref = "perf_event_open(2), use_clockid (4.1): \"allows selecting which internal Linux clock to use when generating timestamps via the clockid field\"; kernel/events/core.c perf_event_clock()",
	.covers = "attr.use_clockid attr.clockid sample.TIME",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct timespec t0, t1;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t a, b;
	volatile char *page;
	int fd, found = 0;

	attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC_RAW;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(page != MAP_FAILED);
	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);	/* fault in the vDSO data first */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	page[0] = 1;
	clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	a = (uint64_t)t0.tv_sec * 1000000000ULL + (uint64_t)t0.tv_nsec;
	b = (uint64_t)t1.tv_sec * 1000000000ULL + (uint64_t)t1.tv_nsec;
	while (pa_ring_head(&r) != r.tail) {
		pa_ring_sample(&r, &attr, &s);
		if (s.addr != (uint64_t)(uintptr_t)page)
			continue;
		found++;
		EXPECT_GE(s.time, a);
		EXPECT_LE(s.time, b);
	}
	EXPECT_EQ(found, 1);
	pa_ring_unmap(&r);
	close(fd);
}
