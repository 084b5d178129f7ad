#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

static void calls(int n)
{
	for (int i = 0; i < n; i++) {
		syscall(SYS_getppid);
		syscall(SYS_getpid);	/* another syscall: not this tracepoint */
	}
}

/*
 * A tracepoint's count is event->count itself, added to by every hit
 * (perf_tp_event() -> perf_swevent_event(): local64_add), with no
 * hardware counter behind it (perf_swevent_read() does nothing), so
 * _perf_event_reset() zeroes the whole count at once, running or not.
 * syscalls:sys_enter_getppid carries the syscall's user registers, so an
 * exclude_kernel event (any identity may open one) counts every call; the
 * counts are calls, the CPU time spent only makes the times advance however
 * coarse the clock.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET sets a tracepoint event's count to zero, on a running event as on a stopped one, and counting goes on from zero (10 getppid() calls, RESET: 0, 5 more: 5); it does not reset time_enabled or time_running",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; kernel/events/core.c _perf_event_reset(), perf_tp_event() -> perf_swevent_event()",
	.covers = "ioctl.RESET type.TRACEPOINT read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.tracefs = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	uint64_t a[3], b[3];	/* {value, time_enabled, time_running} */
	int fd;

	attr.exclude_kernel = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	calls(1);		/* disabled: not counted */
	pa_read_u64(fd, a, 3);
	ASSERT_EQ(a[0], 0);

	/* running */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	calls(10);
	pa_work_cpu_ms(5);	/* the times advance, however coarse the clock */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 10);
	ASSERT_GT(a[1], 0);
	ASSERT_GT(a[2], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_GE(b[1], a[1]);	/* running: the times go on, from where they were */
	EXPECT_GE(b[2], a[2]);
	calls(5);
	pa_work_cpu_ms(5);
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 5);	/* counted on from zero */
	EXPECT_GT(a[1], b[1]);

	/* stopped */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	calls(1);		/* disabled again: not counted */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 5);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], a[1]);	/* disabled: times frozen, not reset */
	EXPECT_EQ(b[2], a[2]);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	calls(3);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 3);	/* enabled again: from zero */
	close(fd);
}
