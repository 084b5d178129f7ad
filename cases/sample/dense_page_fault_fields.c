#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#define N_FAULTS 6

/*
 * Every bit a page-fault sampler fills, at once: IDENTIFIER, IP, TID, TIME,
 * ADDR, ID, STREAM_ID, CPU, PERIOD and READ. Each field has a value the
 * others cannot have (a code address, pid/tid, a CLOCK_MONOTONIC time
 * bracketed by clock_gettime(), the exact data address, the event id, the
 * CPU we are pinned to, 1, the running count), so a field written in
 * another field's place fails.
 */
PERFABI_CASE(
	.assertion = "a PERF_RECORD_SAMPLE with IDENTIFIER|IP|TID|TIME|ADDR|ID|STREAM_ID|CPU|PERIOD|READ holds exactly those fields in the documented order {identifier, ip, pid/tid, time, addr, id, stream_id, cpu/res, period, read_format}: for each page fault the faulting instruction, this task, a time between clock readings around it, the faulting address, the event id thrice, the pinned CPU with res 0, period 1 and the count so far with the id",
	.ref = "perf_event_open(2), MMAP layout, PERF_RECORD_SAMPLE: struct { header; u64 sample_id; u64 ip; u32 pid, tid; u64 time; u64 addr; u64 id; u64 stream_id; u32 cpu, res; u64 period; struct read_format v; ... }; include/uapi/linux/perf_event.h PERF_RECORD_SAMPLE",
	.alone = true,
	.covers = "record.SAMPLE attr.sample_type sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ADDR sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t ip[N_FAULTS], before[N_FAULTS], after[N_FAULTS], want_addr[N_FAULTS];
	const struct perf_event_header *h;
	uint64_t id = 0, rv[2], last = 0;
	struct pa_sample s;
	struct pa_ring r;
	int fd, cpu, n = 0, i, matched = 0;
	char *p;

	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	p = mmap(NULL, (size_t)psz * (N_FAULTS + 1), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_ID;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 16);
	pa_ring_prefault(&r);
	/* warm up: the vDSO, pa_store_byte()'s text, the arrays */
	memset(ip, 0, sizeof(ip));
	memset(before, 0, sizeof(before));
	memset(after, 0, sizeof(after));
	before[0] = pa_clock_ns(CLOCK_MONOTONIC);
	pa_store_byte(p + (size_t)psz * N_FAULTS);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < N_FAULTS; i++) {
		volatile char *at = p + (size_t)psz * i + 8 * i + 3;

		before[i] = pa_clock_ns(CLOCK_MONOTONIC);
		ip[i] = pa_store_byte(at);
		after[i] = pa_clock_ns(CLOCK_MONOTONIC);
		want_addr[i] = (uint64_t)(uintptr_t)at;
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, rv, 2);
	EXPECT_EQ(rv[1], id);

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		/* header + 9 u64 fields + read_format {value, id} */
		EXPECT_EQ(h->size, sizeof(*h) + 9 * 8 + 2 * 8);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		n++;
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.identifier, id);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)syscall(SYS_gettid));
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.stream_id, id);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		/* every fault is sampled: the count goes up by one each time */
		EXPECT_EQ(s.read[0], last + 1);
		EXPECT_EQ(s.read[1], id);
		last = s.read[0];
		if (matched < N_FAULTS && s.addr == want_addr[matched]) {
			if (ip[matched])
				EXPECT_EQ(s.ip, ip[matched]);
			EXPECT_GE(s.time, before[matched]);
			EXPECT_LE(s.time, after[matched]);
			matched++;
		}
	}
	EXPECT_EQ(matched, N_FAULTS);
	EXPECT_GE(n, N_FAULTS);
	EXPECT_EQ(last, rv[0]);		/* the last sample saw the final count */
	pa_diag("%d samples for %d touched pages, count %llu", n, N_FAULTS,
		(unsigned long long)rv[0]);
	pa_ring_unmap(&r);
	close(fd);
}
