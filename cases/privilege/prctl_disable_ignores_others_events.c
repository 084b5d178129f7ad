#include "perfabi.h"
#include <sys/prctl.h>

static void disable_and_touch(int n)
{
	if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0))
		_exit(3);
	pa_touch_pages(n);
}

PERFABI_CASE(
	.assertion = "PR_TASK_PERF_EVENTS_DISABLE does not touch events another process attached to the caller: the parent's counter on the child keeps counting after the child's prctl (the child's 32 fresh pages after it: exactly 32)",
	.ref = "perf_event_open(2), \"This does not apply to events created by other processes attached to the calling process\"",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_puppet p;
	uint64_t before;
	int fd;

	pa_puppet_start(&p);
	attr.disabled = 0;
	fd = EXPECT_OPEN_RESULT(&attr, p.pid, -1, -1, 0, want);
	if (want) {
		pa_puppet_stop(&p);
		return;
	}
	/* the same command once first: the child's code and stack on its path
	 * are then mapped, and each fresh page's first store is its only
	 * fault */
	pa_puppet_run(&p, disable_and_touch, 1);
	before = pa_read_one(fd);
	pa_puppet_run(&p, disable_and_touch, 32);
	EXPECT_EQ(pa_read_one(fd) - before, 32);
	close(fd);
	pa_puppet_stop(&p);
}
