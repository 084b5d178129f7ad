#include "perfabi.h"

/* 8-aligned: a byte at offset 2 and a halfword at offset 4 */
static volatile uint8_t buf[16] __attribute__((aligned(8)));

static uint64_t count_writes(int fd, int idx, int n)
{
	uint64_t before = pa_read_one(fd);

	for (int i = 0; i < n; i++)
		buf[idx] = (uint8_t)i;
	return pa_read_one(fd) - before;
}

PERFABI_CASE(
	.assertion = "a write watchpoint with bp_len HW_BREAKPOINT_LEN_1 or HW_BREAKPOINT_LEN_2 counts exactly the writes to the bp_len bytes at bp_addr; a write to the byte just before or just after them is not counted",
	.ref = "perf_event_open(2), bp_len \"the length of the breakpoint being measured\", HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_LEN_2; arch/x86/kernel/hw_breakpoint.c arch_build_bp_info()",
	.covers = "type.BREAKPOINT attr.bp_len attr.bp_addr",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[2], HW_BREAKPOINT_LEN_1);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(count_writes(fd, 2, 11), 11);
	EXPECT_EQ(count_writes(fd, 1, 7), 0);	/* the byte before */
	EXPECT_EQ(count_writes(fd, 3, 7), 0);	/* the byte after */
	close(fd);

	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[4], HW_BREAKPOINT_LEN_2);
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(count_writes(fd, 4, 5), 5);	/* first byte of the two */
	EXPECT_EQ(count_writes(fd, 5, 6), 6);	/* second byte of the two */
	EXPECT_EQ(count_writes(fd, 3, 7), 0);	/* the byte before */
	EXPECT_EQ(count_writes(fd, 6, 7), 0);	/* the byte after */
	close(fd);
}
