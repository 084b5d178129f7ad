#include "perfabi.h"

#include <sys/syscall.h>
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "an event attached to another process outlives it: after the "
		     "process exited and was reaped, read() returns its final count, "
		     "exactly the faults it made while counted, and keeps returning it",
	.ref = "perf_event_open(2), pid > 0; kernel/events/core.c "
	       "perf_event_exit_event(): \"Parent events are governed by their "
	       "filedesc, retain them\" (state EXIT, count kept)",
	.covers = "arg.pid attr.read_format sw.PAGE_FAULTS",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int ready[2], go[2], st = 0, fd;
	uint64_t b[2] = { 7, 7 };
	char c = 'g';
	pid_t pid;

	ASSERT_OK(pipe(ready));
	ASSERT_OK(pipe(go));
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		/* take the copy-on-write and code faults before it is counted:
		 * all it runs later, down to the exit syscall */
		pa_touch_pages(16);
		if (read(go[0], &c, 0) != 0 || syscall(SYS_getpid) != getpid())
			_exit(1);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		pa_touch_pages(16);	/* counted: exactly 16 faults */
		syscall(SYS_exit_group, 0);
	}
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	ASSERT_EQ(write(go[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 16);
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 16);		/* final: does not change */
	close(fd);
}
