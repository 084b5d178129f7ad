#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "a counting event (sample_period 0) can be mapped, control page only, and its page carries the event's times: 0 before it was ever enabled, and after it ran and was disabled, IOC_RESET rewrites the page so that time_enabled, time_running and offset equal exactly what read() returns",
	.ref = "perf_event_open(2), MMAP layout: \"The mmap size should be 1+2^n pages\" (n = 0 data pages: the metadata page only), time_enabled/time_running; kernel/events/core.c perf_mmap() (perf_event_update_userpage() on the new rb), _perf_event_reset() -> perf_event_update_userpage()",
	.covers = "mmap.size mmap.capabilities attr.sample_period ioctl.RESET",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t v[3], en, run;
	struct pa_ring r;
	uint32_t idx;
	int64_t off;
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 0);			/* control page only */
	pa_page_times(r.page, &en, &run, &off, &idx);
	EXPECT_EQ(en, 0u);				/* never enabled yet */
	EXPECT_EQ(run, 0u);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(20);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, v, 3);
	pa_page_times(r.page, &en, &run, &off, &idx);
	EXPECT_EQ(v[0], 0u);				/* reset */
	EXPECT_GE(v[1], PA_WORKED_NS_MIN(20));	/* it was on for the 20 ms */
	EXPECT_EQ(en, v[1]);
	EXPECT_EQ(run, v[2]);
	EXPECT_EQ(idx, 0u);
	EXPECT_EQ((uint64_t)off, v[0]);			/* index 0: count = offset */
}
