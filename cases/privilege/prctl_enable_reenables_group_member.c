#include "perfabi.h"
#include <sys/prctl.h>

PERFABI_CASE(
	.assertion = "PR_TASK_PERF_EVENTS_ENABLE enables every event the caller opened, group members included: a member disabled with PERF_EVENT_IOC_DISABLE counts again (the man page says only group leaders are affected)",
	.ref = "kernel/events/core.c perf_event_task_enable(): every event on current->perf_event_list; perf_event_open(2) \"Only group leaders are enabled and disabled\" (finding)",
	.covers = "prctl.TASK_PERF_EVENTS_ENABLE arg.group_fd",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	uint64_t m0;
	int lead, mem;

	attr.disabled = 0;
	lead = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	mem = ASSERT_OPEN(&attr, 0, -1, lead, 0);
	ASSERT_OK(ioctl(mem, PERF_EVENT_IOC_DISABLE, 0));
	m0 = pa_read_one(mem);
	pa_touch_pages(16);
	ASSERT_EQ(pa_read_one(mem), m0);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pa_touch_pages(32);
	EXPECT_GE(pa_read_one(mem), m0 + 32);
	close(mem);
	close(lead);
}
