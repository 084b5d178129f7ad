// SPDX-License-Identifier: GPL-2.0
/* Helpers for the read/ioctl/inherit/breakpoint cases. */
#include "perfabi.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

struct perf_event_attr pa_bp_attr(uint32_t bp_type, const void *addr,
				  uint64_t len)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.config = 0;
	a.bp_type = bp_type;
	a.bp_addr = (uint64_t)(uintptr_t)addr;
	a.bp_len = len;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

uint64_t pa_read_one(int fd)
{
	uint64_t v = 0;

	pa_read_u64(fd, &v, 1);
	return v;
}

const struct pa_read_rec *pa_inherit_stat_read_record(struct perf_event_attr *attr,
						      void (*child_fn)(void),
						      pid_t *child, uint64_t *id)
{
	static struct pa_ring r;
	struct perf_event_attr extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	int cpus[1], fd, st;

	/* A non-inherited event of ours keeps the child's context from
	 * being a clone of ours (inherit_task_group(): inherited_all = 0),
	 * so perf_event_context_sched_out() never swaps the two and the
	 * child runs with its inherited event. */
	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	/* an inherited event is mmappable only when bound to a CPU */
	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	attr->disabled = 0;
	attr->inherit = 1;
	attr->inherit_stat = 1;
	attr->read_format = PERF_FORMAT_ID;
	fd = ASSERT_OPEN(attr, 0, cpus[0], -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, id));
	pa_ring_map(&r, fd, 4);
	*child = fork();
	ASSERT_GE(*child, 0);
	if (*child == 0) {
		child_fn();
		_exit(0);
	}
	ASSERT_EQ(waitpid(*child, &st, 0), *child);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	h = pa_ring_find_pid(&r, PERF_RECORD_READ, *child);
	return (const struct pa_read_rec *)h;
}

static void *touch_thread(void *pages)
{
	pa_touch_pages((int)(intptr_t)pages);
	return NULL;
}

uint64_t pa_child_faults_delta(struct perf_event_attr *attr, int pages, bool thread)
{
	int fd = ASSERT_OPEN(attr, 0, -1, -1, 0), st = 0;
	uint64_t before;
	pthread_t t;
	pid_t pid;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	if (thread) {
		ASSERT_EQ(pthread_create(&t, NULL, touch_thread, (void *)(intptr_t)pages), 0);
		ASSERT_EQ(pthread_join(t, NULL), 0);
	} else {
		pid = fork();
		ASSERT_NE(pid, -1);
		if (pid == 0) {
			pa_touch_pages(pages);
			_exit(0);
		}
		ASSERT_EQ(waitpid(pid, &st, 0), pid);
		ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	return pa_read_one(fd) - before;
}
