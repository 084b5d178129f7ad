#include "perfabi.h"

/*
 * 16-aligned: the watched 4 bytes are buf[4..7]. x86: a data breakpoint
 * triggers when any byte accessed falls within its range. arm64: a
 * watchpoint matches an access that touches any of its selected bytes
 * (WCR.BAS), one exception per access; watchpoint_handler() reports it
 * once, to the watchpoint the fault address matches or else the closest
 * one (the address reported for a wider access may lie before the watched
 * bytes). On both, an access that touches none of them raises nothing.
 */
static union {
	volatile uint8_t b[16];
	volatile uint16_t h[8];
	volatile uint64_t q[2];
} buf __attribute__((aligned(16), unused));

PERFABI_CASE(
	.assertion = "on x86 and arm64 a write watchpoint counts a write that covers any byte of its bp_len range, once per write, and not a write next to it: an 8-byte store over the range and a 2-byte store into its upper half count, 2- and 8-byte stores just outside do not",
	.ref = "perf_event_open(2), bp_addr/bp_len; Intel SDM vol. 3 17.2.5 \"a data breakpoint is triggered if any of the bytes accessed falls within the range\"; arch/x86/kernel/hw_breakpoint.c; arch/arm64/kernel/hw_breakpoint.c watchpoint_handler(), get_distance_from_watchpoint(), Arm ARM D2 byte address select",
	.covers = "type.BREAKPOINT attr.bp_addr attr.bp_len",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__x86_64__) || defined(__aarch64__)
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
	pa_skip("how a watchpoint matches an access that covers only part of it is known here only for x86-64 and arm64 (any byte matches)");
#endif
}
