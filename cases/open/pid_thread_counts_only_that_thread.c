#include "perfabi.h"

#include <pthread.h>
#include <sys/syscall.h>

static int go[2], done[2];
static pid_t tid;

static void *worker(void *unused)
{
	char c;

	(void)unused;
	tid = (pid_t)syscall(SYS_gettid);
	pa_touch_pages(1);	/* its stack and code faults before it is counted */
	if (write(done[1], "t", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	pa_touch_pages(64);
	/* wait in the kernel until the count is taken: the thread's exit
	 * runs user code that faults */
	if (write(done[1], "d", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "pid may be a thread id: the event counts that thread only, "
		     "not the other threads of its process: exactly its faults",
	.ref = "perf_event_open(2), Arguments: \"This measures the specified "
	       "process/thread\"; inherit: \"a thread ... only\"",
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
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	ASSERT_NE(tid, getpid());
	fd = ASSERT_OPEN(&attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1024);		/* the main thread: not counted */
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(write(go[1], "e", 1), 1);	/* now it may exit */
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 64);	/* the thread's 64, none of the main thread's */
	pthread_join(th, NULL);
}
