#include "perfabi.h"
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "syscalls:sys_exit_getppid counts exactly the getppid() returns of the own task, and nothing of other syscalls",
	.ref = "perf_event_open(2), PERF_TYPE_TRACEPOINT",
	.covers = "type.TRACEPOINT",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_exit_getppid"));
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 4; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 4);
	close(fd);
}
