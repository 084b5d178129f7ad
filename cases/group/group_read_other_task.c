#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-12 (the man page's BUGS: "Prior to Linux 2.6.35, PERF_FORMAT_GROUP
 * did not work with attached processes"). The group is opened on a forked
 * child (pid > 0) that touches exactly TOUCHED pages when told to; the
 * child first runs the same path once, so its stack and code are its own
 * (copy-on-write done) and the counted faults are exactly the touched
 * pages. The parent touches pages of its own while the group is enabled:
 * the group counts the child only.
 */
#define TOUCHED		16
#define PARENT_TOUCHED	32

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read of a group attached to another process (pid > 0) returns nr, then each member's value and id in creation order: exactly the child's page faults, none of the opener's",
	.ref = "perf_event_open(2), read_format PERF_FORMAT_GROUP; BUGS: \"Prior to Linux 2.6.35, PERF_FORMAT_GROUP did not work with attached processes\"",
	.covers = "arg.pid arg.group_fd read_format.GROUP read_format.ID ioctl.ID sw.PAGE_FAULTS sw.PAGE_FAULTS_MIN sw.DUMMY",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const uint64_t want[3] = { TOUCHED, 0, TOUCHED };
	uint64_t b[16] = { 0 }, id[3];
	struct pa_puppet child;
	int fd[3];

	pa_puppet_start(&child);
	pa_puppet_run(&child, pa_touch_pages, 1);	/* warm up the child */

	l.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	s.disabled = 0;
	fd[0] = ASSERT_OPEN(&l, child.pid, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&s, child.pid, -1, fd[0], 0);	/* dummy: 0 */
	s.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	fd[2] = ASSERT_OPEN(&s, child.pid, -1, fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(PARENT_TOUCHED);			/* not the target */
	pa_puppet_run(&child, pa_touch_pages, TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 3 * 16);
	EXPECT_EQ(b[0], 3);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(b[1 + 2 * i], want[i]);
		EXPECT_EQ(b[2 + 2 * i], id[i]);
	}
	for (int i = 0; i < 3; i++)
		close(fd[i]);
	pa_puppet_stop(&child);
}
