#include "perfabi.h"

#include <sys/mman.h>

#define N_WRITES 10

/*
 * arm64 watchpoints are faults: the watchpoint exception is taken before
 * the store completes, with the pc at the store itself (the kernel then
 * single-steps over it, watchpoint_handler() / the default overflow
 * handler). perf_bp_event() samples the exception's registers and sets
 * PERF_SAMPLE_ADDR to attr.bp_addr. So with sample_period 1 each of N
 * stores by the one instruction "str x1, [x0]" at pa_arm64_store_insn
 * gives one sample, ip = that instruction (x86, whose data breakpoints
 * are traps, gives the next one: breakpoint/sample_write_addr_ip_after),
 * addr = bp_addr.
 */
static volatile uint64_t target __attribute__((aligned(8)));

PERFABI_CASE(
	.assertion = "arm64: a write watchpoint sampled on every hit (sample_period 1) writes one PERF_RECORD_SAMPLE per write, PERF_SAMPLE_IP is the store instruction itself (a watchpoint is a fault, taken before the store) and PERF_SAMPLE_ADDR is bp_addr",
	.ref = "perf_event_open(2), PERF_SAMPLE_ADDR; kernel/events/core.c perf_bp_event(): perf_sample_data_init(&sample, bp->attr.bp_addr, 0); arch/arm64/kernel/hw_breakpoint.c watchpoint_handler(), watchpoint_report(); Arm ARM D2: watchpoint exceptions are synchronous, reported on the accessing instruction",
	.covers = "type.BREAKPOINT attr.bp_addr attr.sample_period sample.IP sample.ADDR record.SAMPLE",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
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
		pa_arm64_store_stub(&target, (uint64_t)i);
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
			EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)pa_arm64_store_insn);
		}
		n++;
	}
	EXPECT_EQ(n, N_WRITES);
	EXPECT_EQ(pa_read_one(fd), N_WRITES);
	EXPECT_EQ(target, N_WRITES - 1);	/* each store did complete */
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the IP of a watchpoint sample checked here is arm64's (a fault: the store itself; x86-64: breakpoint/sample_write_addr_ip_after)");
#endif
}
