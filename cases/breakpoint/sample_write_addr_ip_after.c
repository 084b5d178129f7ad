#include "perfabi.h"

#include <sys/mman.h>

#define N_WRITES 10

static volatile uint64_t target __attribute__((aligned(8)));

PERFABI_CASE(
	.assertion = "a write watchpoint sampled on every hit (sample_period 1) writes one PERF_RECORD_SAMPLE per write, PERF_SAMPLE_ADDR is bp_addr, and on x86 (data breakpoints are traps) PERF_SAMPLE_IP is the instruction after the store",
	.ref = "perf_event_open(2), PERF_SAMPLE_ADDR \"usually the address of a tracepoint, breakpoint, or software event\"; kernel/events/core.c perf_bp_event(): perf_sample_data_init(&sample, bp->attr.bp_addr, 0); Intel SDM vol. 3 17.3.1.2: data breakpoints are traps",
	.covers = "type.BREAKPOINT attr.bp_addr attr.sample_period sample.IP sample.ADDR record.SAMPLE",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__x86_64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	uint64_t after[N_WRITES];
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N_WRITES; i++)
		after[i] = pa_store_u64_ip_after(&target, (uint64_t)i);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE)
			pa_throttled_in_burst(N_WRITES);
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		if (n < N_WRITES) {
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
			EXPECT_EQ(s.ip, after[n]);
		}
		n++;
	}
	EXPECT_EQ(n, N_WRITES);
	EXPECT_EQ(pa_read_one(fd), N_WRITES);
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the IP of a data-breakpoint sample is known here only for x86-64 (a trap: the next instruction)");
#endif
}
