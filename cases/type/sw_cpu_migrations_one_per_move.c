#include "perfabi.h"

#include <sys/ioctl.h>

#define MOVES 10

/*
 * set_task_cpu() to another CPU increments p->se.nr_migrations and, while a
 * migrations event exists, sets p->sched_migrated; the next
 * perf_event_task_sched_in() of the task counts one
 * PERF_COUNT_SW_CPU_MIGRATIONS and clears the flag. A task allowed on a
 * single CPU moves only when its affinity changes: sched_setaffinity() to
 * the other CPU moves it once, and it runs there before the call returns.
 * So 10 moves count exactly 10, as many as nr_migrations (in
 * /proc/thread-self/sched where the kernel has it) grows by.
 *
 * The scheduler records the migration with kernel registers: counting needs
 * exclude_kernel=0, which the paranoid level may forbid.
 */
static const char *kernel_counting(void)
{
	static char why[96];

	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "counting migrations needs exclude_kernel=0, "
		 "which paranoid %d forbids here", pa_paranoid());
	return why;
}

/* se.nr_migrations of this thread, or -1 (no /proc/<pid>/sched:
 * CONFIG_SCHED_DEBUG). */
static long long nr_migrations(void)
{
	char line[256];
	long long n = -1;
	FILE *f = fopen("/proc/thread-self/sched", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16))
			sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : line, "%lld", &n);
	if (f)
		fclose(f);
	return n;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CPU_MIGRATIONS counts one per move of the task "
		     "to another CPU: a task pinned to one CPU and moved 10 times "
		     "by sched_setaffinity() counts exactly 10 (and the scheduler's "
		     "nr_migrations grows by 10 too)",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CPU_MIGRATIONS \"the number of "
	       "times the process has migrated to a new CPU\"; kernel/sched/core.c "
	       "set_task_cpu() (nr_migrations++, perf_event_task_migrate()); "
	       "include/linux/perf_event.h perf_event_task_sched_in()",
	.alone = true,
	.covers = "sw.CPU_MIGRATIONS attr.config",
	.min_cpus = 2,
	.probe = kernel_counting,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_MIGRATIONS);
	long long m0, m1;
	int cpus[2], fd;
	uint64_t n;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	m0 = nr_migrations();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 1; i <= MOVES; i++) {
		ASSERT_OK(pa_pin_cpu(cpus[i % 2]));
		pa_busy_loop(1000);	/* run there */
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	m1 = nr_migrations();
	pa_read_u64(fd, &n, 1);
	close(fd);
	pa_diag("%llu migrations counted, nr_migrations %lld -> %lld",
		(unsigned long long)n, m0, m1);
	EXPECT_EQ(n, MOVES);
	if (m0 >= 0 && m1 >= 0)
		EXPECT_EQ(m1 - m0, MOVES);
}
