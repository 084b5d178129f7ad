#include "perfabi.h"

#include <time.h>

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_TASK_CLOCK counts the clock time of the running task in nanoseconds: "
		     "over 100 ms of busy CPU time it advances by at least 50 ms",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_TASK_CLOCK",
	.covers = "sw.TASK_CLOCK type.SOFTWARE attr.type attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t start, n;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	start = thread_cpu_ns();
	while (thread_cpu_ns() - start < 100000000u)
		pa_busy_loop(10000);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	pa_diag("%llu ns", (unsigned long long)n);
	EXPECT_GE(n, 50000000u);
}
