#include "perfabi.h"

#include <time.h>

/* The scheduler records the switch with kernel registers, so an event with
 * exclude_kernel never sees it (see sw_context_switches_exclude_kernel_zero):
 * counting them needs kernel profiling rights. */
static const char *kernel_counting(void)
{
	static char why[96];

	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "counting context switches needs "
		 "exclude_kernel=0, which paranoid %d forbids here", pa_paranoid());
	return why;
}

#include <sys/resource.h>

/* This thread's voluntary context switches so far. */
static long voluntary(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		pa_fail("getrusage: %s", pa_errno_name(errno));
		pa_abort();
	}
	return ru.ru_nvcsw;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CONTEXT_SWITCHES counts context switches: 20 "
		     "sleeps that blocked (getrusage's voluntary switches) add at least 20",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CONTEXT_SWITCHES; "
	       "include/linux/perf_event.h perf_event_task_sched_out()",
	.alone = true,
	.covers = "sw.CONTEXT_SWITCHES attr.config",
	.probe = kernel_counting,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct timespec ms = { 0, 1000000 };
	uint64_t n;
	long v0;
	int fd;

	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	v0 = voluntary();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* sleep until 20 sleeps really blocked: one whose timer expired
	 * before the task slept (a slow vCPU) does not switch */
	for (int i = 0; i < 2000 && voluntary() - v0 < 20; i++)
		nanosleep(&ms, NULL);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	pa_diag("%llu switches", (unsigned long long)n);
	EXPECT_GE(n, 20);
}
