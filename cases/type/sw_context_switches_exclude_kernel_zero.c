#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "a context switch happens in the kernel: "
		     "PERF_COUNT_SW_CONTEXT_SWITCHES with exclude_kernel set counts "
		     "none, however often the task blocks",
	.ref = "perf_event_open(2), exclude_kernel \"the count excludes events "
	       "that happen in kernel space\"; include/linux/perf_event.h "
	       "__perf_sw_event_sched() records with perf_fetch_caller_regs() "
	       "(kernel mode), kernel/events/core.c perf_exclude_event()",
	.alone = true,
	.covers = "sw.CONTEXT_SWITCHES attr.exclude_kernel",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct timespec ms = { 0, 1000000 };
	uint64_t n;
	int fd;

	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 20; i++)
		nanosleep(&ms, NULL);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 0);
}
