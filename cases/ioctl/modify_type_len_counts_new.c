#include "perfabi.h"

static volatile uint8_t buf[8] __attribute__((aligned(8)));

/* w writes to buf[0], x writes to buf[1], r reads of buf[0] */
__attribute__((noinline)) static void touch_bytes(int w, int x, int r)
{
	uint8_t sink = 0;

	for (int i = 0; i < w; i++)
		buf[0] = (uint8_t)i;
	for (int i = 0; i < x; i++)
		buf[1] = (uint8_t)i;
	for (int i = 0; i < r; i++)
		sink += buf[0];
	__asm__ volatile("" :: "r"(sink) : "memory");
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_MODIFY_ATTRIBUTES changes a breakpoint's bp_type and bp_len: after W/LEN_2 becomes RW/LEN_1, reads of the byte count, writes to the byte no longer covered do not",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_MODIFY_ATTRIBUTES (since Linux 4.17); kernel/events/hw_breakpoint.c modify_user_hw_breakpoint_check(): bp_addr, bp_type, bp_len and disabled may change",
	.covers = "ioctl.MODIFY_ATTRIBUTES type.BREAKPOINT attr.bp_type attr.bp_len",
	.min_kernel = "4.17",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[0], HW_BREAKPOINT_LEN_2);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_bytes(3, 4, 5);	/* W over buf[0..1]: 3 + 4 writes, reads not */
	EXPECT_EQ(pa_read_one(fd), 7);

	a.bp_type = HW_BREAKPOINT_RW;
	a.bp_len = HW_BREAKPOINT_LEN_1;
	a.disabled = 0;		/* the new attr's disabled applies too */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a));
	touch_bytes(3, 4, 5);	/* RW over buf[0]: 3 writes + 5 reads */
	EXPECT_EQ(pa_read_one(fd), 7 + 8);
	close(fd);
}
