#include "perfabi.h"

PERFABI_CASE(
	.assertion = "writing perf_event_max_stack moves the limit: at 10, sample_max_stack 10 opens and 11 fails with EOVERFLOW",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_max_stack; kernel/events/callchain.c get_callchain_buffers()",
	.alone = true,
	.covers = "sysctl.perf_event_max_stack attr.sample_max_stack errno.EOVERFLOW",
	.min_kernel = "4.8",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	if (pa_sysctl_write("kernel/perf_event_max_stack", "10")) {
		if (errno == EBUSY)
			pa_skip("callchain events of other processes keep perf_event_max_stack busy");
		pa_fail("write perf_event_max_stack: %s", pa_errno_name(errno));
		return;
	}
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.sample_max_stack = 10;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	close(fd);
	attr.sample_max_stack = 11;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOVERFLOW);
}
