#include "perfabi.h"

static const char *probe(void)
{
	const char *r = pa_probe_self_perf();

	if (r)
		return r;
	if (pa_tracepoint_id("raw_syscalls", "sys_enter") < 0)
		return "no raw_syscalls:sys_enter tracepoint";
	return NULL;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_FILTER on a tracepoint event rejects a filter naming an unknown field with EINVAL, and a second filter on an event that already has one with EEXIST",
	.ref = "kernel/trace/trace_events_filter.c ftrace_profile_set_filter(): event->filter set -> -EEXIST; create_filter() parse error -> -EINVAL (neither is in perf_event_open(2))",
	.covers = "ioctl.SET_FILTER",
	.tracefs = true,
	.probe = probe,
) {
	struct perf_event_attr a = pa_sw_attr(0);
	int fd;

	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)pa_tracepoint_id("raw_syscalls", "sys_enter");
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"), EINVAL);
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "id == 1"));
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "id == 2"), EEXIST);
	close(fd);
}
