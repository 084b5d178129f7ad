#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "for a software event (no rdpmc) the control page's index is 0 while the event is enabled and running, so user space must read() the count",
	.ref = "perf_event_open(2), MMAP layout: \"index: A unique hardware counter identifier\"; include/uapi/linux/perf_event.h read loop: \"count = pc->offset; if (pc->cap_user_rdpmc && index) { ... rdpmc(index - 1) }\"; kernel/events/core.c perf_event_index(): pmu->event_idx, perf_event_idx_default() = 0 for the software PMU",
	.covers = "mmap.capabilities",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pa_ring r;
	uint32_t lock;
	int fd;

	/* enabled at open: the mmap's own update runs while it is ACTIVE */
	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 0);
	pa_work_cpu_ms(5);
	EXPECT_EQ(r.page->index, 0u);
	/* IOC_RESET rewrites the page (lock += 2) with the event still running */
	lock = r.page->lock;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_work_cpu_ms(5);
	EXPECT_NE(r.page->lock, lock);
	/* written while ACTIVE: time_running had accrued the first 5 ms */
	EXPECT_GE(r.page->time_running, PA_WORKED_NS_MIN(5));
	EXPECT_EQ(r.page->index, 0u);
	EXPECT_EQ((uint64_t)r.page->cap_user_rdpmc, (uint64_t)0u);
	EXPECT_GE(pa_read_one(fd), PA_WORKED_NS_MIN(5));	/* it was counting */
}
