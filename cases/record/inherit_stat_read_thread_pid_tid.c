#include "perfabi.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

/*
 * The inherit_stat PERF_RECORD_READ of a thread that is not the main
 * thread: pid = the process id, tid = the thread's id (pid != tid), and
 * the value is that thread's own count.
 *
 * Set-up as in pa_inherit_stat_read_record(): an enabled, inherited,
 * inherit_stat page-fault counter with read_format ID on us, bound to the
 * CPU we pin to (an inherited per-task event can be mmapped only with a
 * CPU), and a non-inherited dummy that keeps a thread's context from being
 * a swappable clone of ours. Threads run on a stack we give them (faulted
 * in beforehand) after a warm-up thread, so their only page faults besides
 * the touched pages are the same every time: threads touching 1 and
 * 1 + 512 fresh pages get values exactly 512 apart. pthread_join() returns
 * before the thread's perf exit: we wait until tgkill(..., 0) says ESRCH.
 */
#define STACK_SIZE (256 * 1024)

static pid_t thread_tid;

static void *touch(void *pages)
{
	thread_tid = (pid_t)syscall(SYS_gettid);
	pa_touch_pages((int)(intptr_t)pages);
	return NULL;
}

/* Run a thread touching `pages`; return its READ record's value. */
static uint64_t thread_read_value(struct pa_ring *r, void *stack, int pages,
				  uint64_t id)
{
	struct timespec ms = { 0, 1000000 };
	const struct pa_read_rec *rr;
	pthread_attr_t ta;
	pthread_t t;

	ASSERT_EQ(pthread_attr_init(&ta), 0);
	ASSERT_EQ(pthread_attr_setstack(&ta, stack, STACK_SIZE), 0);
	ASSERT_EQ(pthread_create(&t, &ta, touch, (void *)(intptr_t)pages), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	pthread_attr_destroy(&ta);
	while (syscall(SYS_tgkill, getpid(), thread_tid, 0) == 0)
		nanosleep(&ms, NULL);
	ASSERT_EQ(errno, ESRCH);
	rr = (const struct pa_read_rec *)pa_ring_find_pid(r, PERF_RECORD_READ, getpid());
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->h.size, sizeof(*rr));
	EXPECT_EQ(rr->tid, (uint32_t)thread_tid);
	EXPECT_NE(rr->tid, (uint32_t)getpid());
	EXPECT_EQ(rr->id, id);
	return rr->value;
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: when a thread that is not the main thread exits, its PERF_RECORD_READ has pid = the process id, tid = the thread's id, and the thread's own count: threads touching 1 and 513 fresh pages get values exactly 512 apart",
	.ref = "perf_event_open(2), inherit_stat; PERF_RECORD_READ {pid, tid, values}; kernel/events/core.c sync_child_event() -> perf_event_read_event(child_event, task); c418d8b4d7a4 \"perf/core: Fix missing read event generation on task exit\"",
	.alone = true,
	.covers = "attr.inherit_stat record.READ attr.inherit read_format.ID",
	.xfail = {
		.from = "5.13",
		.to = "6.19",
		.fixed_in = "6.18.2 6.17.13",
		.why = "the child context is marked TASK_TOMBSTONE before sync_child_event() runs, so no PERF_RECORD_READ is generated at exit (regressed by ef54c1a476ae \"perf: Rework perf_event_exit_event()\", 5.13); fixed in 6.19 (c418d8b4d7a4) and by the stable backports da07fa873059 (6.18.2) and e70bd000760a (6.17.13); no backport to 6.12.y, 6.6.y, 6.1.y or 5.15.y was found (the fix touches __pmu_detach_event(), which only 6.17+ has)",
		.fix = "c418d8b4d7a4",
	},
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr extra = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t id = 0, v1, v2;
	struct pa_ring r;
	int cpus[1], fd;
	char *stack;

	stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(stack != MAP_FAILED);
	memset(stack, 1, STACK_SIZE);
	ASSERT_OPEN(&extra, 0, -1, -1, 0);
	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	attr.disabled = 0;
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.read_format = PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, cpus[0], -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	thread_read_value(&r, stack, 1, id);	/* warm-up */
	v1 = thread_read_value(&r, stack, 1, id);
	v2 = thread_read_value(&r, stack, 1 + 512, id);
	pa_diag("READ value of the thread touching 1 page: %llu, 513 pages: %llu",
		(unsigned long long)v1, (unsigned long long)v2);
	EXPECT_GE(v1, 1u);
	EXPECT_EQ(v2 - v1, 512u);
	close(fd);
}
