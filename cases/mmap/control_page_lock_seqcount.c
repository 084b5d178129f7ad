#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "the control page's lock is a sequence count: it is even while no update is in progress and each update of the page (here one IOC_RESET of a disabled event, nothing else writes the page) advances it by exactly 2",
	.ref = "perf_event_open(2), MMAP layout: \"lock: A seqlock for synchronization.\" and its read loop \"do { seq = pc->lock; barrier(); ... } while (pc->lock != seq);\"; kernel/events/core.c perf_event_update_userpage(): ++userpg->lock; ... ++userpg->lock",
	.covers = "mmap.capabilities ioctl.RESET",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pa_ring r;
	uint32_t l0, l1;
	int fd, i;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 0);
	l0 = __atomic_load_n(&r.page->lock, __ATOMIC_ACQUIRE);
	EXPECT_EQ(l0 % 2, 0u);
	EXPECT_EQ(l0, 2u);			/* a zeroed page, one update by perf_mmap() */
	for (i = 0; i < 3; i++) {
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		l1 = __atomic_load_n(&r.page->lock, __ATOMIC_ACQUIRE);
		EXPECT_EQ(l1 % 2, 0u);
		EXPECT_EQ(l1 - l0, 2u);
		l0 = l1;
	}
	/* a disabled event is not scheduled: nothing else touches the page */
	pa_work_cpu_ms(10);
	EXPECT_EQ(__atomic_load_n(&r.page->lock, __ATOMIC_ACQUIRE), l0);
}
