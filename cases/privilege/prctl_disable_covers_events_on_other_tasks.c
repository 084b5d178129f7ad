#include "perfabi.h"
#include <sys/prctl.h>

PERFABI_CASE(
	.assertion = "PR_TASK_PERF_EVENTS_DISABLE acts on the events the caller created, wherever they are attached: a counter the caller opened on its child stops too",
	.ref = "perf_event_open(2), \"This applies only to events created locally by the calling process\"; kernel/events/core.c perf_event_task_disable() walks current->perf_event_list (owner)",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE arg.pid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_puppet p;
	uint64_t n;
	int fd;

	pa_puppet_start(&p);
	attr.disabled = 0;
	fd = EXPECT_OPEN_RESULT(&attr, p.pid, -1, -1, 0, want);
	if (want) {
		pa_puppet_stop(&p);
		return;
	}
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	n = pa_read_one(fd);
	pa_puppet_run(&p, pa_work_pages, 32);
	EXPECT_EQ(pa_read_one(fd), n);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pa_puppet_run(&p, pa_work_pages, 32);
	EXPECT_GE(pa_read_one(fd), n + 32);
	close(fd);
	pa_puppet_stop(&p);
}
