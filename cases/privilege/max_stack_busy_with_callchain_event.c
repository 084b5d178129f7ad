#include "perfabi.h"

PERFABI_CASE(
	.assertion = "perf_event_max_stack cannot be written while a callchain event exists: EBUSY",
	.ref = "kernel/events/callchain.c perf_event_max_stack_handler(): atomic_read(&nr_callchain_events) -> -EBUSY",
	.alone = true,
	.covers = "sysctl.perf_event_max_stack errno.EBUSY",
	.min_kernel = "4.8",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	char buf[32];
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(pa_sysctl_read("kernel/perf_event_max_stack", buf, sizeof(buf)));
	EXPECT_ERRNO(pa_sysctl_write("kernel/perf_event_max_stack", buf), EBUSY);
	close(fd);
}
