#include "perfabi.h"

#include <pthread.h>
#include <sys/syscall.h>

static volatile uint64_t target __attribute__((aligned(8)));
static int to_thread[2], from_thread[2];

__attribute__((noinline)) static void write_n(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

static void *thread_fn(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	char c;

	(void)arg;
	if (write(from_thread[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	if (read(to_thread[0], &c, 1) != 1)	/* the event is open and enabled */
		return NULL;
	write_n(13);
	if (write(from_thread[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	return NULL;
}

PERFABI_CASE(
	.assertion = "a write watchpoint opened with pid = another thread's tid counts exactly that thread's writes to the variable, not the writes of the thread that opened it",
	.ref = "perf_event_open(2), pid > 0 \"measures the specified process/thread\"; type PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W",
	.covers = "type.BREAKPOINT arg.pid attr.bp_addr",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	pthread_t th;
	pid_t tid;
	int fd;

	ASSERT_OK(pipe(to_thread));
	ASSERT_OK(pipe(from_thread));
	ASSERT_EQ(pthread_create(&th, NULL, thread_fn, NULL), 0);
	ASSERT_EQ(read(from_thread[0], &tid, sizeof(tid)), (ssize_t)sizeof(tid));
	ASSERT_NE(tid, getpid());

	fd = ASSERT_OPEN(&a, tid, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	write_n(7);		/* this thread: not counted */
	ASSERT_EQ(write(to_thread[1], "g", 1), 1);
	ASSERT_EQ(read(from_thread[0], &tid, sizeof(tid)), (ssize_t)sizeof(tid));
	write_n(7);		/* after the thread's writes: still not counted */
	EXPECT_EQ(pa_read_one(fd), 13);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	close(fd);
}
