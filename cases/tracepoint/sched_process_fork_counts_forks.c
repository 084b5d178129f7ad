#include "perfabi.h"
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "sched:sched_process_fork on the own task counts exactly the fork()s it makes",
	.ref = "perf_event_open(2), PERF_TYPE_TRACEPOINT",
	.covers = "type.TRACEPOINT",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_process_fork"));
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 3; i++) {
		pid_t c = fork();

		if (c == 0)
			_exit(0);
		ASSERT_GT(c, 0);
		waitpid(c, NULL, 0);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 3);
	close(fd);
}
