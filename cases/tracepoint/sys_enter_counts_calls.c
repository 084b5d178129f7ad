#include "perfabi.h"
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "a tracepoint event (type TRACEPOINT, config = the id from tracefs) on the own task counts exactly the times the tracepoint is hit: syscalls:sys_enter_getppid counts the getppid() calls",
	.ref = "perf_event_open(2), PERF_TYPE_TRACEPOINT \"...the config value ... can be obtained from under debugfs tracing/events/*/*/id\"",
	.covers = "type.TRACEPOINT attr.config",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 11; i++)
		syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	syscall(SYS_getppid);
	EXPECT_EQ(pa_read_one(fd), 11);
	close(fd);
}
