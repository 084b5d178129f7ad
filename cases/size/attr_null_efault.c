#include "perfabi.h"

#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "a NULL attr pointer fails with EFAULT",
	.ref = "perf_event_open(2), EFAULT: \"the attr pointer points at an invalid memory address\"; kernel/events/core.c perf_copy_attr(): get_user(size, &uattr->size)",
	.covers = "arg.attr errno.EFAULT",
	.probe = pa_probe_self_perf,
) {
	EXPECT_ERRNO(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), EFAULT);
}
