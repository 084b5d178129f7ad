#include "perfabi.h"

/*
 * aux_pause and aux_resume are opposite actions: one event cannot do both.
 * With aux_action (6.13, 6.12.24) perf_event_alloc() refuses the pair with
 * EINVAL before anything else looks at the event. On a software event the
 * later rule (an aux_action event needs an AUX group leader) also gives
 * EINVAL, so the two are told apart by a check that comes between them:
 * perf_cgroup_connect() with a cgroup fd that is no open file (EBADF) runs
 * after perf_event_alloc() and before the AUX-leader check. aux_pause alone
 * then gets EBADF (it passed the pair check); the pair gets EINVAL (it did
 * not). Before aux_action both bits were __reserved_3: EINVAL for either.
 */
PERFABI_CASE(
	.assertion = "attr.aux_pause and attr.aux_resume both set fail with EINVAL at event allocation, before the cgroup is looked up (aux_pause alone reaches the cgroup lookup: EBADF for a cgroup fd that is not open); before aux_action both bits are reserved (EINVAL for either)",
	.ref = "kernel/events/core.c perf_event_alloc(): \"if (event->attr.aux_pause && event->attr.aux_resume) -EINVAL\", then perf_cgroup_connect() (-EBADF), perf_event_open(): the AUX-leader check later (6.13, 18d92bb57c39); perf_copy_attr() __reserved_3",
	.alone = true,
	.covers = "attr.aux_pause attr.aux_resume errno.EINVAL errno.EBADF flag.PID_CGROUP",
	.features = "cgroup",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int bad_cgroup_fd = 1000, deny = pa_expected_errno(PA_NEED_CPU);

	/* a cgroup event is CPU-wide: the permission check comes first */
	if (deny)
		pa_skip("a cgroup event needs CPU-wide access, which this context lacks (%s): the check order cannot be seen",
			pa_context_string());
	close(bad_cgroup_fd);	/* surely not open */
	attr.aux_pause = 1;
	if (!pa_since_aux_action()) {
		EXPECT_OPEN_FAIL(&attr, bad_cgroup_fd, 0, -1, PERF_FLAG_PID_CGROUP, EINVAL);
		attr.aux_resume = 1;
		EXPECT_OPEN_FAIL(&attr, bad_cgroup_fd, 0, -1, PERF_FLAG_PID_CGROUP, EINVAL);
		return;
	}
	EXPECT_OPEN_FAIL(&attr, bad_cgroup_fd, 0, -1, PERF_FLAG_PID_CGROUP, EBADF);
	attr.aux_resume = 1;
	EXPECT_OPEN_FAIL(&attr, bad_cgroup_fd, 0, -1, PERF_FLAG_PID_CGROUP, EINVAL);
	/* without the cgroup: EINVAL as well (pins the plain errno) */
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
