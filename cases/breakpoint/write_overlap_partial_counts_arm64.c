#include "perfabi.h"

/*
 * arm64: a watchpoint matches an access that touches any of its selected
 * bytes (WCR.BAS), raising one watchpoint exception per access; the
 * kernel's watchpoint_handler() reports it once, to the watchpoint the
 * fault address matches or else the closest one (the address the CPU
 * reports for a wider access may lie before the watched bytes). An access
 * that touches none of them raises nothing. So a 4-byte watchpoint at
 * doubleword + 4 counts an 8-byte store over the whole doubleword and a
 * 2-byte store into its upper half once each, and stores next to it
 * nothing (breakpoint/write_overlap_partial_counts is x86's).
 */
static union {
	volatile uint8_t b[16];
	volatile uint16_t h[8];
	volatile uint64_t q[2];
} buf __attribute__((aligned(16), unused));

PERFABI_CASE(
	.assertion = "arm64: a write watchpoint counts a write that covers any byte of its bp_len range, once per write, and not a write next to it: an 8-byte store over the range and a 2-byte store into its upper half count, 2- and 8-byte stores just outside do not",
	.ref = "perf_event_open(2), bp_addr/bp_len; arch/arm64/kernel/hw_breakpoint.c watchpoint_handler() (\"If no exact match is found. Attribute the hit to the closest watchpoint\"), get_distance_from_watchpoint(); Arm ARM D2 watchpoint byte address select",
	.covers = "type.BREAKPOINT attr.bp_addr attr.bp_len",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf.b[4], HW_BREAKPOINT_LEN_4);
	uint64_t n0, n1, n2, n3;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 6; i++)
		buf.q[0] = (uint64_t)i;		/* bytes 0..7: over the range */
	n0 = pa_read_one(fd);
	for (int i = 0; i < 5; i++)
		buf.h[3] = (uint16_t)i;		/* bytes 6..7: inside */
	n1 = pa_read_one(fd);
	for (int i = 0; i < 7; i++)
		buf.h[1] = (uint16_t)i;		/* bytes 2..3: just before */
	n2 = pa_read_one(fd);
	for (int i = 0; i < 7; i++)
		buf.q[1] = (uint64_t)i;		/* bytes 8..15: just after */
	n3 = pa_read_one(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(n0, 6);
	EXPECT_EQ(n1 - n0, 5);
	EXPECT_EQ(n2 - n1, 0);
	EXPECT_EQ(n3 - n2, 0);
	close(fd);
#else
	pa_skip("how a watchpoint matches a partly covering access is checked here for arm64 (x86-64: breakpoint/write_overlap_partial_counts)");
#endif
}
