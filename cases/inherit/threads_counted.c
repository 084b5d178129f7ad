#include "perfabi.h"

#include <pthread.h>
#include <sys/mman.h>

/*
 * The thread runs on a stack we give it, faulted in beforehand, and a
 * first thread has already run (the first thread of a process takes a few
 * one-time faults in libc), so a thread's only page faults besides the
 * pages it touches are the same few every time.
 * "inh" (inherit) minus "own" (no inherit: the main thread alone) over a
 * create + join is the thread's share; a thread touching 512 more fresh
 * pages must add exactly 512 more.
 */
#define STACK_SIZE (256 * 1024)

static void *touch(void *pages)
{
	pa_touch_pages((int)(intptr_t)pages);
	return NULL;
}

static uint64_t thread_share(int inh, int own, void *stack, int pages)
{
	uint64_t i0, o0, i1, o1;
	pthread_attr_t ta;
	pthread_t t;

	ASSERT_EQ(pthread_attr_init(&ta), 0);
	ASSERT_EQ(pthread_attr_setstack(&ta, stack, STACK_SIZE), 0);
	i0 = pa_read_one(inh);
	o0 = pa_read_one(own);
	ASSERT_EQ(pthread_create(&t, &ta, touch, (void *)(intptr_t)pages), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	i1 = pa_read_one(inh);
	o1 = pa_read_one(own);
	pthread_attr_destroy(&ta);
	return (i1 - i0) - (o1 - o0);
}

PERFABI_CASE(
	.assertion = "with inherit set, threads created after the event was opened are counted too: once the thread is joined the event has grown by exactly its page faults (a thread touching 512 more fresh pages adds exactly 512 more)",
	.ref = "perf_event_open(2), inherit: child tasks include threads (CLONE_THREAD); kernel/events/core.c inherit_task_group()",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	uint64_t base, more;
	int inh, own;
	char *stack;

	stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(stack != MAP_FAILED);
	memset(stack, 1, STACK_SIZE);
	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	thread_share(inh, own, stack, 1);	/* warm-up */
	base = thread_share(inh, own, stack, 1);
	more = thread_share(inh, own, stack, 1 + 512);
	pa_diag("thread touching 1 page added %llu, 513 pages %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_GE(base, 1u);
	EXPECT_EQ(more - base, 512u);
	close(own);
	close(inh);
}
