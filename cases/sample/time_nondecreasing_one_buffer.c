#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#define N_PAGES 64

/*
 * Two page-fault samplers of this task (PAGE_FAULTS and MINOR_FAULTS), the
 * second redirected into the first one's ring with
 * PERF_EVENT_IOC_SET_OUTPUT: every fresh page writes one sample of each, so
 * the buffer interleaves the two events. On one CPU (the task is pinned)
 * perf's default clock never goes back, so every sample's time is at least
 * the time of the sample before it in the buffer.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_TIME is a timestamp that does not decrease between consecutive samples of one CPU: across all samples of one ring buffer, written by two events of a task pinned to one CPU, each time is >= the one before; and each event wrote exactly one sample per event counted",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"time: If PERF_SAMPLE_TIME is enabled, then a 64-bit timestamp is included\"; PERF_EVENT_IOC_SET_OUTPUT \"report event notifications to the specified file descriptor\"; kernel/events/core.c perf_clock(): local_clock(), monotonic on one CPU",
	.alone = true,
	.covers = "sample.TIME sample.ID record.SAMPLE ioctl.SET_OUTPUT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr b = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t ida = 0, idb = 0, prev = 0;
	int fa, fb, cpu, na = 0, nb = 0, n = 0;
	struct pa_sample s;
	struct pa_ring r;
	volatile char *p;

	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	p = mmap(NULL, (size_t)psz * N_PAGES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	a.disabled = b.disabled = 1;
	a.sample_type = b.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_ID, &ida));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ID, &idb));
	ASSERT_NE(ida, idb);
	pa_ring_map(&r, fa, 32);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_SET_OUTPUT, fa));
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N_PAGES; i++) {
		p[(size_t)psz * i] = 1;
		if (i % 8 == 7)
			sched_yield();
	}
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		if (s.id == ida)
			na++;
		else if (s.id == idb)
			nb++;
		else
			pa_fail("sample %d has id %llu, neither event's (%llu, %llu)", n,
				(unsigned long long)s.id, (unsigned long long)ida,
				(unsigned long long)idb);
		if (n > 0 && s.time < prev)
			pa_fail("sample %d: time %llu is before the previous sample's %llu",
				n, (unsigned long long)s.time, (unsigned long long)prev);
		EXPECT_NE(s.time, 0u);
		prev = s.time;
		n++;
	}
	EXPECT_GE(na, N_PAGES);
	EXPECT_GE(nb, N_PAGES);
	EXPECT_EQ((uint64_t)na, pa_read_one(fa));
	EXPECT_EQ((uint64_t)nb, pa_read_one(fb));
	pa_diag("%d samples (%d + %d) in one buffer", n, na, nb);
	pa_ring_unmap(&r);
	close(fb);
	close(fa);
}
