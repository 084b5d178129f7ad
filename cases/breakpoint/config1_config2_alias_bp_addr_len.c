#include "perfabi.h"

#include <stddef.h>

static volatile union {
	uint64_t q[2];
	uint32_t d[4];
} v __attribute__((aligned(16)));

__attribute__((noinline)) static void write_n(volatile uint64_t *p, int n)
{
	for (int i = 0; i < n; i++)
		*p = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "bp_addr shares its 8 bytes (offset 56) with config1 and bp_len its 8 bytes (offset 64) with config2: a breakpoint given only as config1 = address, config2 = length watches that address with that length and counts exactly its writes",
	.ref = "perf_event_open(2), struct perf_event_attr: union { bp_addr; kprobe_func; uprobe_path; config1; } and union { bp_len; kprobe_addr; probe_offset; config2; }",
	.covers = "attr.config1 attr.config2 attr.bp_addr attr.bp_len type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a;
	int fd;

	/* the documented offsets of the two unions */
	EXPECT_EQ(offsetof(struct perf_event_attr, config1), 56);
	EXPECT_EQ(offsetof(struct perf_event_attr, config2), 64);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.config1 = (uint64_t)(uintptr_t)&v.q[1];	/* bp_addr */
	a.config2 = HW_BREAKPOINT_LEN_8;		/* bp_len */
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	write_n(&v.q[0], 5);	/* the 8 bytes before: not watched */
	write_n(&v.q[1], 11);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 11);
	close(fd);

	/* config2 = 4 is bp_len 4: d[3], bytes 4..7 of q[1], is outside
	 * the watched range */
	a.config2 = HW_BREAKPOINT_LEN_4;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 6; i++)
		v.d[3] = (uint32_t)i;
	for (int i = 0; i < 3; i++)
		v.d[2] = (uint32_t)i;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 3);
	close(fd);
}
