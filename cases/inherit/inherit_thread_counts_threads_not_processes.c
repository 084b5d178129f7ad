#include "perfabi.h"

#include <pthread.h>
#include <sys/wait.h>

/*
 * inherit_thread restricts inheritance to clone(CLONE_THREAD): a thread
 * created after the event gets a copy (its page faults are counted), a
 * forked child process does not (its page faults are not).
 */
static void *thread_fn(void *arg)
{
	pa_touch_pages((int)(long)arg);
	return NULL;
}

PERFABI_CASE(
	.assertion = "attr.inherit with attr.inherit_thread: a new thread's 64 page faults are counted, a forked child's 128 page faults are not",
	.ref = "include/uapi/linux/perf_event.h inherit_thread \"children only inherit if cloned with CLONE_THREAD\" (5.13, 2b26f0aa0047); kernel/events/core.c inherit_task_group()",
	.covers = "attr.inherit_thread attr.inherit",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a, b, c;
	pthread_t t;
	int fd, st;
	pid_t pid;

	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	a = pa_read_one(fd);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pa_touch_pages(128);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	b = pa_read_one(fd);
	ASSERT_EQ(pthread_create(&t, NULL, thread_fn, (void *)64L), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	c = pa_read_one(fd);
	pa_diag("fork: +%llu, thread: +%llu", (unsigned long long)(b - a),
		(unsigned long long)(c - b));
	EXPECT_LT(b - a, 64);
	EXPECT_GE(c - b, 64);
	close(fd);
}
