#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT to a file descriptor that is not a perf event (a pipe), to a closed descriptor or to a negative one other than -1 fails with EBADF",
	.ref = "kernel/events/core.c _perf_ioctl() PERF_EVENT_IOC_SET_OUTPUT: perf_fget_light(): no file or f_op != &perf_fops -> -EBADF (the man page lists no ioctl errors)",
	.covers = "ioctl.SET_OUTPUT errno.EBADF",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	int fd, p[2];

	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(pipe(p));
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]), EBADF);
	close(p[0]);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]), EBADF);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -2L), EBADF);
	close(p[1]);
	close(fd);
}
