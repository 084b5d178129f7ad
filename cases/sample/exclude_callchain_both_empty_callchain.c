#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclude_callchain_kernel drops the kernel part of PERF_SAMPLE_CALLCHAIN,
 * exclude_callchain_user the user part. With both set nothing is left and
 * the callchain is empty: nr == 0 (perf_callchain(): "if (!kernel &&
 * !user) return &__empty_callchain").
 */
PERFABI_CASE(
	.assertion = "attr.exclude_callchain_kernel and attr.exclude_callchain_user both set: a PERF_SAMPLE_CALLCHAIN sample carries an empty callchain (nr == 0)",
	.ref = "include/uapi/linux/perf_event.h exclude_callchain_kernel/exclude_callchain_user \"exclude kernel/user callchains\" (3.7); kernel/events/core.c perf_callchain()",
	.covers = "attr.exclude_callchain_kernel attr.exclude_callchain_user sample.CALLCHAIN",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_sample s;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.exclude_callchain_user = 1;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.var.callchain_nr, 0);
	pa_ring_unmap(&r);
	close(fd);
}
