#include "perfabi.h"

#include <fcntl.h>

PERFABI_CASE(
	.assertion = "fcntl(F_SETFL, O_NONBLOCK) is accepted on a perf event fd and "
		     "read() of a counting event then behaves as a blocking one: it "
		     "returns the current value at once, never EAGAIN",
	.ref = "tools/perf/design.txt: \"fcntl() can be used to set the blocking "
	       "mode\"; kernel/events/core.c perf_read(): \"simple non blocking "
	       "version\", f_flags not looked at",
	.covers = "fd.O_NONBLOCK",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[2] = { 7, 7 };
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0), fl;

	fl = ASSERT_OK(fcntl(fd, F_GETFL));
	EXPECT_EQ(fl & O_NONBLOCK, 0);
	ASSERT_OK(fcntl(fd, F_SETFL, fl | O_NONBLOCK));
	EXPECT_EQ(fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
	/* never enabled: nothing to wait for, the value is 0 */
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 0);
	/* warm the counted path once, so that only the 16 fresh pages fault */
	pa_count_over(fd, pa_work_pages, 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	/* while it is enabled and counting */
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	close(fd);
}
