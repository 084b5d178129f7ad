#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Every event is opened disabled; one ENABLE with PERF_IOC_FLAG_GROUP on
 * the leader turns them all on before the ioctl returns, and one DISABLE
 * with the flag turns them all off, so each counts exactly the page
 * faults in between (ioctl/enable_flag_group checks only "at least").
 */
#define TOUCHED	16

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP on the leader enables every member at once: a leader and two members opened disabled (page-faults, page-faults, minor faults) each count exactly the 16 pages touched until the group is disabled with the flag",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_ENABLE: \"If the PERF_IOC_FLAG_GROUP bit is set in the ioctl argument, then all events in a group are enabled, even if the event specified is not the group leader\"",
	.covers = "ioctl.ENABLE ioctl.DISABLE ioctl.FLAG_GROUP arg.group_fd sw.PAGE_FAULTS sw.PAGE_FAULTS_MIN",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd[3];

	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), TOUCHED);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
