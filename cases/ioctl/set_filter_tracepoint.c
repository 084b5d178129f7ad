#include "perfabi.h"
#include <sys/syscall.h>

static const char *probe(void)
{
	const char *r = pa_probe_self_perf();

	if (r)
		return r;
	if (pa_tracepoint_id("raw_syscalls", "sys_enter") < 0)
		return "no raw_syscalls:sys_enter tracepoint";
	/* tracepoints fire in the kernel: counting needs exclude_kernel = 0 */
	if (pa_expected_errno(PA_NEED_KERNEL))
		return "counting a tracepoint (exclude_kernel = 0) is not allowed to this identity";
	return NULL;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_FILTER on a tracepoint event installs an ftrace filter: only hits matching it are counted",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_FILTER (since Linux 2.6.33); Documentation/trace/events.rst, Event filtering",
	.covers = "ioctl.SET_FILTER type.TRACEPOINT",
	.tracefs = true,
	.probe = probe,
) {
	struct perf_event_attr a = pa_sw_attr(0);
	char filter[64];
	int fd;

	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)pa_tracepoint_id("raw_syscalls", "sys_enter");
	a.exclude_kernel = 0;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	snprintf(filter, sizeof(filter), "id == %ld", (long)SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 100; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < 50; i++)
		syscall(SYS_getpid);	/* filtered out */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 100);
	close(fd);
}
