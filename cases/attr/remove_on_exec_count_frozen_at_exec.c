#include "perfabi.h"

/*
 * An enabled remove_on_exec event attached to a child counts the pages the
 * child touches before exec; at the exec the event is removed from the
 * task (perf_event_remove_on_exec()), so the pages the exec'd fixture
 * touches are not counted. The fd stays valid and reads the frozen value.
 *
 * The oracle is exact: the event is opened once the child sleeps waiting
 * to be told to go (everything it did after the fork is done), so it
 * counts the child's path from there to the exec: its stores into the
 * fresh pages and the same faults of that path in every child. A control
 * child touches 1 page and execs the fixture touching 200, the child under
 * test touches 65 and execs it touching 100: the second event counts
 * exactly 64 more; one that went on counting after the exec 36 less.
 */
static uint64_t run_child(int pages, const char *image_pages)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd, i;
	pid_t pid = pa_exec_child_start(&go, pages, "touch_pages", image_pages);
	uint64_t v;

	for (i = 0; i < 10000 && pa_task_state(pid, 0, NULL) != 'S'; i++)
		pa_sleep_ms(1);
	ASSERT_LT(i, 10000);	/* asleep in read() of its go pipe */
	attr.disabled = 0;
	attr.remove_on_exec = 1;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	EXPECT_EQ(pa_read_one(fd), v);
	close(fd);
	return v;
}

PERFABI_CASE(
	.assertion = "attr.remove_on_exec: the event counts its task until execve and is removed from it at the exec: a child that touches 65 pages before exec (its new image 100) is counted exactly 64 more than a control child that touches 1 (its new image 200): the pages touched by the new image are not counted, and the fd still reads the frozen count",
	.ref = "include/uapi/linux/perf_event.h remove_on_exec \"event is removed from task on exec\" (5.13, 2e498d0a74e5); kernel/events/core.c perf_event_remove_on_exec()",
	.covers = "attr.remove_on_exec",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	uint64_t ctl, v;

	ctl = run_child(1, "200");
	v = run_child(65, "100");
	pa_diag("control child (1 page before exec, 200 after): %llu page faults counted; child touching 65 before, 100 after: %llu",
		(unsigned long long)ctl, (unsigned long long)v);
	EXPECT_GE(ctl, 1);
	EXPECT_EQ(v, ctl + 64);
}
