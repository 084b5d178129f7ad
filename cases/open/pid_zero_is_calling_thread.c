#include "perfabi.h"

#include <pthread.h>
#include <sys/syscall.h>

/*
 * pid 0 is the calling thread, not its process: a thread other than the
 * main one opens the event with pid 0 (the same as its own tid, gettid()),
 * and the event counts exactly that thread's faults, none of the main
 * thread's. Each side runs its measured path once before counting, so a
 * fresh page is exactly one fault.
 */
static int go[2], done[2];
static int fd = -1;

static void *worker(void *unused)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	char c;

	(void)unused;
	pa_touch_pages(1);	/* its stack and code fault before it is counted */
	fd = pa_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		(void)ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (write(done[1], "o", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	pa_touch_pages(32);
	/* wait in the kernel until the count is taken: the thread's exit
	 * runs user code that faults */
	if (write(done[1], "d", 1) != 1 || read(go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "pid == 0 measures the calling thread (not its process): an event a non-main thread opens with pid 0 counts exactly that thread's 32 faults and none of the main thread's 256",
	.ref = "perf_event_open(2), Arguments: \"pid == 0 and cpu == -1: This measures the calling process/thread on any CPU\"; kernel/events/core.c perf_event_open(): pid 0 is current, a task (thread)",
	.covers = "arg.pid",
	.probe = pa_probe_self_perf,
) {
	pthread_t th;
	char c;

	pa_touch_pages(1);
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(done));
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	if (fd < 0) {
		pa_fail("the thread's perf_event_open(pid 0) failed");
		pa_abort();
	}
	pa_touch_pages(256);		/* the main thread: not counted */
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(done[0], &c, 1), 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(write(go[1], "e", 1), 1);	/* now it may exit */
	EXPECT_EQ(pa_read_one(fd), 32);
	pthread_join(th, NULL);
}
