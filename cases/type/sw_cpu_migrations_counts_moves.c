#include "perfabi.h"

/* Migrations are recorded by the scheduler with kernel registers: counting
 * them needs exclude_kernel=0. */
static const char *kernel_counting(void)
{
	static char why[96];

	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "counting migrations needs exclude_kernel=0, "
		 "which paranoid %d forbids here", pa_paranoid());
	return why;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CPU_MIGRATIONS counts moves of the task to "
		     "another CPU: 10 forced moves (sched_setaffinity) add at least 10",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CPU_MIGRATIONS; "
	       "include/linux/perf_event.h perf_event_task_sched_in()",
	.alone = true,
	.covers = "sw.CPU_MIGRATIONS attr.config",
	.min_cpus = 2,
	.probe = kernel_counting,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_MIGRATIONS);
	int cpus[2], fd;
	uint64_t n;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 1; i <= 10; i++) {
		ASSERT_OK(pa_pin_cpu(cpus[i % 2]));
		pa_busy_loop(1000);	/* run there */
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	pa_diag("%llu migrations", (unsigned long long)n);
	EXPECT_GE(n, 10);
}
