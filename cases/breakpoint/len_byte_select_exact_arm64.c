#include "perfabi.h"

/*
 * arm64 watchpoints select bytes: WCR.BAS is an 8-bit mask of the bytes of
 * the doubleword at WVR, so arch_build_bp_info() takes every bp_len from 1
 * to 8 (ARM_BREAKPOINT_LEN_n = (1 << n) - 1) and hw_breakpoint_arch_parse()
 * shifts the mask by bp_addr's offset in its doubleword. A watchpoint of
 * bp_len 3 at doubleword + 1 therefore watches bytes 1, 2 and 3 exactly:
 * each one-byte store there raises one watchpoint exception (one count),
 * a store to byte 0 or byte 4 raises none. x86 refuses bp_len 3
 * (breakpoint/bp_len_invalid_einval).
 */
static volatile uint8_t buf[16] __attribute__((aligned(8)));

static __attribute__((unused)) uint64_t count_writes(int fd, int idx, int n)
{
	uint64_t before = pa_read_one(fd);

	for (int i = 0; i < n; i++)
		buf[idx] = (uint8_t)i;
	return pa_read_one(fd) - before;
}

PERFABI_CASE(
	.assertion = "arm64: a write watchpoint of bp_len 3 (a byte-select length) at a doubleword + 1 counts exactly the one-byte writes to bytes 1, 2 and 3 of it, and none to byte 0 or byte 4",
	.ref = "perf_event_open(2), bp_len; arch/arm64/kernel/hw_breakpoint.c arch_build_bp_info() (HW_BREAKPOINT_LEN_1..8 -> ARM_BREAKPOINT_LEN_n), hw_breakpoint_arch_parse(): hw->ctrl.len <<= offset; Arm ARM D2 watchpoint byte address select",
	.covers = "attr.bp_len attr.bp_addr type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[1], HW_BREAKPOINT_LEN_3);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(count_writes(fd, 1, 5), 5);
	EXPECT_EQ(count_writes(fd, 2, 6), 6);
	EXPECT_EQ(count_writes(fd, 3, 7), 7);
	EXPECT_EQ(count_writes(fd, 0, 9), 0);	/* the byte before */
	EXPECT_EQ(count_writes(fd, 4, 9), 0);	/* the byte after */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	close(fd);
#else
	pa_skip("byte-select watchpoint lengths (3, 5, 6, 7) are arm64's; x86 refuses them (breakpoint/bp_len_invalid_einval)");
#endif
}
