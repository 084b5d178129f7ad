#include "perfabi.h"

#include <pthread.h>

static int go[2], done[2];

static void *worker(void *unused)
{
	char c;

	(void)unused;
	if (read(go[0], &c, 1) != 1)
		return NULL;
	pa_touch_pages(1024);
	if (write(done[1], "d", 1) != 1)
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "a process id names its main thread only: an event on "
		     "getpid() (inherit clear) does not count the faults of the "
		     "process's other threads",
	.ref = "perf_event_open(2), Arguments \"the specified process/thread\" "
	       "and inherit; kernel/events/core.c find_lively_task_by_vpid() "
	       "(one task, not a thread group)",
	.covers = "arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	pthread_t th;
	uint64_t n;
	char c;
	int fd;

	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	/* fault in the code the counted part runs: then only fresh pages fault */
	ASSERT_EQ(write(done[1], "w", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	pa_touch_pages(64);
	/* the thread exists before the event: inherit plays no part */
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	fd = ASSERT_OPEN(&attr, getpid(), -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);	/* its 1024 faults: not counted */
	pa_touch_pages(64);			/* the main thread's: counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 64);	/* the main thread's 64 only */
	pthread_join(th, NULL);
}
